import { describe, expect, it } from 'vitest';
import { MalformedRequestError, ValidationError } from './errors.js';
import { checkJsonBody, checkTextDeep, textProblem, utf8Check } from './json-input-rules.js';

const bytes = (text: string) => Buffer.from(text, 'utf8');

function refusal(run: () => void): ValidationError | MalformedRequestError {
  try {
    run();
  } catch (err) {
    if (err instanceof ValidationError || err instanceof MalformedRequestError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('textProblem', () => {
  it('when text holds a lone surrogate or a NUL, then it names the rule; well-formed pairs pass', () => {
    expect(textProblem('a\ud800b')).toMatch(/lone surrogate/);
    expect(textProblem('\udc00')).toMatch(/lone surrogate/);
    expect(textProblem('a\u0000')).toMatch(/NUL/);
    expect(textProblem('emoji 😀 and @')).toBeUndefined();
  });
});

describe('checkJsonBody', () => {
  it('when a nested string holds an escaped lone surrogate, then 400 names its path', () => {
    const err = refusal(() => checkJsonBody(bytes('{"a":[{"b":"ok"},{"b":"\\ud800"}]}')));
    expect(err.details).toEqual([
      { loc: ['body', 'a', '1', 'b'], type: 'text', msg: expect.stringMatching(/lone surrogate/) },
    ]);
  });

  it('when a key or a value holds an escaped NUL, then 400 names it', () => {
    expect(refusal(() => checkJsonBody(bytes('{"to":"x\\u0000"}'))).details[0]?.loc).toEqual([
      'body',
      'to',
    ]);
    expect(refusal(() => checkJsonBody(bytes('{"t\\u0000":1}'))).details[0]?.type).toBe('text');
  });

  it('when an object names a key twice, at any depth, then 400 names the key; arrays of objects may repeat keys', () => {
    const err = refusal(() => checkJsonBody(bytes('{"a":{"x":1,"y":2,"x":3}}')));
    expect(err.details).toEqual([
      { loc: ['body', 'a', 'x'], type: 'duplicate', msg: 'appears more than once' },
    ]);
    expect(() => checkJsonBody(bytes('[{"x":1},{"x":2}]'))).not.toThrow();
  });

  it('when the bytes are not UTF-8, then the body is malformed', () => {
    const err = refusal(() =>
      checkJsonBody(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d])),
    );
    expect(err).toBeInstanceOf(MalformedRequestError);
    expect(err.message).toBe('body is not valid UTF-8');
  });

  it('when the body is not JSON, then it leaves the verdict to JSON.parse', () => {
    expect(() => checkJsonBody(bytes('{"to": '))).not.toThrow();
  });
});

describe('utf8Check', () => {
  it('when a multi-byte character is split across chunks, then it passes; a truncated one at the end fails', () => {
    const euro = Buffer.from('€', 'utf8');
    const ok = utf8Check();
    ok.write(euro.subarray(0, 1));
    ok.write(euro.subarray(1));
    expect(() => ok.end()).not.toThrow();
    const cut = utf8Check();
    cut.write(euro.subarray(0, 2));
    expect(() => cut.end()).toThrow(MalformedRequestError);
  });
});

describe('checkTextDeep', () => {
  it('when a parsed form field holds a NUL, then 400 names it', () => {
    expect(
      refusal(() => checkTextDeep({ to: 'a', message: 'b\u0000' }, ['body'])).details[0]?.loc,
    ).toEqual(['body', 'message']);
  });
});

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

describe('checkJsonBody bounds', () => {
  const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

  it('when objects nest 32 levels deep, then the body passes; at 33, then 400 names depth', () => {
    expect(() => checkJsonBody(bytes(nested(32)))).not.toThrow();
    const err = refusal(() => checkJsonBody(bytes(nested(33))));
    expect(err.details[0]).toMatchObject({ type: 'depth', loc: ['body', ...Array(32).fill('a')] });
  });

  it('when arrays nest 40,000 levels deep, then 400 names depth after one linear pass', () => {
    const err = refusal(() => checkJsonBody(bytes(`${'['.repeat(40_000)}${']'.repeat(40_000)}`)));
    expect(err.details[0]?.type).toBe('depth');
    expect(err.details[0]?.loc).toHaveLength(33);
  });

  it('when an object has 1,001 members, then 400 names it and maxProperties; 1,000 pass', () => {
    const object = (n: number) =>
      `{"o":{${Array.from({ length: n }, (_, i) => `"k${i}":${i}`).join(',')}}}`;
    expect(() => checkJsonBody(bytes(object(1_000)))).not.toThrow();
    expect(refusal(() => checkJsonBody(bytes(object(1_001)))).details[0]).toMatchObject({
      loc: ['body', 'o'],
      type: 'maxProperties',
    });
  });

  it('when an array has 10,001 entries, then 400 names it and maxItems; 10,000 pass', () => {
    const array = (n: number) => `{"list":[${Array(n).fill(0).join(',')}]}`;
    expect(() => checkJsonBody(bytes(array(10_000)))).not.toThrow();
    expect(refusal(() => checkJsonBody(bytes(array(10_001)))).details[0]).toMatchObject({
      loc: ['body', 'list'],
      type: 'maxItems',
    });
  });

  it('when the document holds more than 100,000 values, then 400 names the body and size', () => {
    const row = `[${Array(1_000).fill(0).join(',')}]`;
    const body = `[${Array(100).fill(row).join(',')}]`; // 1 + 100 + 100,000 values
    expect(refusal(() => checkJsonBody(bytes(body))).details[0]).toMatchObject({
      loc: ['body'],
      type: 'size',
    });
  });
});

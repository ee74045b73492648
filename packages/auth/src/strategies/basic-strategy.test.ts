import { describe, expect, it } from 'vitest';
import { parseBasicAuthorization } from './basic-strategy.js';

const basic = (raw: string) => `Basic ${Buffer.from(raw).toString('base64')}`;

describe('parseBasicAuthorization', () => {
  it('when the password contains colons, then it is split at the first colon only (RFC 7617)', () => {
    expect(parseBasicAuthorization(basic('acme:pa:ss:'))).toEqual({
      name: 'acme',
      password: 'pa:ss:',
    });
  });

  it('when the scheme is written in another case, then it is still Basic', () => {
    expect(parseBasicAuthorization(`bAsIc ${Buffer.from('a:b').toString('base64')}`)).toEqual({
      name: 'a',
      password: 'b',
    });
  });

  it('when the credentials are UTF-8, then they decode as UTF-8', () => {
    expect(parseBasicAuthorization(basic('åsa:lösen'))).toEqual({ name: 'åsa', password: 'lösen' });
  });

  it('when the decoded bytes are not valid UTF-8, then there are no credentials (no U+FFFD stand-in)', () => {
    const raw = Buffer.concat([Buffer.from('acme:pass'), Buffer.from([0xff])]);
    expect(parseBasicAuthorization(`Basic ${raw.toString('base64')}`)).toBeNull();
  });

  it.each([
    ['no header', undefined],
    ['another scheme', 'Bearer abc'],
    ['a scheme merely containing Basic', `XBasic ${Buffer.from('a:b').toString('base64')}`],
    ['no colon', basic('acme')],
    ['an empty user', basic(':pw')],
    ['not base64', 'Basic ***'],
  ])('when given %s, then there are no credentials', (_case, header) => {
    expect(parseBasicAuthorization(header)).toBeNull();
  });
});

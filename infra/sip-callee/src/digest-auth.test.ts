import { createHash } from 'node:crypto';
import type { SipMessage } from 'sip';
import digest from 'sip/digest.js';
import { describe, expect, it } from 'vitest';
import { DIGEST_REALM, digestChallenge, isAuthorised } from './digest-auth.js';

const credentials = { username: 'trunk', password: 's3cret' };
const md5 = (text: string) => createHash('md5').update(text).digest('hex');

/** An INVITE answered the RFC 2617 way, computed here independently of sip.js. */
function invite(options: { nonce: string; password?: string; username?: string }): SipMessage {
  const uri = 'sip:46701234567@127.0.0.1';
  const ha1 = md5(`${options.username ?? 'trunk'}:${DIGEST_REALM}:${options.password ?? 's3cret'}`);
  const ha2 = md5(`INVITE:${uri}`);
  const response = md5(`${ha1}:${options.nonce}:00000001:abc:auth:${ha2}`);
  return {
    method: 'INVITE',
    uri,
    headers: {
      via: [],
      to: { uri, params: {} },
      from: { uri: 'sip:46709998877@127.0.0.1', params: { tag: '1' } },
      'call-id': 'call-1',
      cseq: { seq: 1, method: 'INVITE' },
      authorization: [
        {
          scheme: 'Digest',
          username: `"${options.username ?? 'trunk'}"`,
          realm: `"${DIGEST_REALM}"`,
          nonce: `"${options.nonce}"`,
          uri: `"${uri}"`,
          qop: 'auth',
          nc: '00000001',
          cnonce: '"abc"',
          response: `"${response}"`,
          algorithm: 'MD5',
        },
      ],
    },
  };
}

const freshNonce = () => (digestChallenge().nonce ?? '').replaceAll('"', '');

describe('isAuthorised', () => {
  it('when the response matches a nonce we issued, then the request is authorised', () => {
    expect(isAuthorised(invite({ nonce: freshNonce() }), credentials)).toBe(true);
  });

  it.each([
    ['a wrong password', { password: 'nope' }],
    ['another user', { username: 'other' }],
  ])('when it carries %s, then it is not', (_, change) => {
    expect(isAuthorised(invite({ nonce: freshNonce(), ...change }), credentials)).toBe(false);
  });

  it('when the nonce is older than five minutes or not ours, then it is not', () => {
    const stale = digest.generateNonce(DIGEST_REALM, new Date(Date.now() - 6 * 60_000));
    expect(isAuthorised(invite({ nonce: stale }), credentials)).toBe(false);
    expect(isAuthorised(invite({ nonce: 'bm90LWEtZGF0ZTt4' }), credentials)).toBe(false);
    expect(isAuthorised(invite({ nonce: 'garbage' }), credentials)).toBe(false);
  });
});

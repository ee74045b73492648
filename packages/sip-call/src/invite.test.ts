import { createHash } from 'node:crypto';
import type { SipRequest, SipResponse } from 'sip';
import { describe, expect, it } from 'vitest';
import { authenticated, outcomeOfFinal } from './invite.js';

const md5 = (s: string) => createHash('md5').update(s).digest('hex');

const invite: SipRequest = {
  method: 'INVITE',
  uri: 'sip:+46700000002@10.0.0.5:5060',
  headers: {
    via: [{ host: '10.0.0.2', port: 5060, protocol: 'UDP', params: { branch: 'z9hG4bK1' } }],
    to: { uri: 'sip:+46700000002@10.0.0.5:5060', params: {} },
    from: { uri: 'sip:+46700000001@10.0.0.2', params: { tag: 'abc' } },
    'call-id': 'call-1',
    cseq: { seq: 1, method: 'INVITE' },
  },
  content: 'v=0\r\n',
};

function challenge(status: 401 | 407): SipResponse {
  const header = status === 401 ? 'www-authenticate' : 'proxy-authenticate';
  return {
    status,
    reason: 'Unauthorized',
    headers: {
      ...invite.headers,
      [header]: [{ scheme: 'Digest', realm: '"trunk"', nonce: '"n0nce"', algorithm: 'MD5' }],
    },
  };
}

describe('digest retry', () => {
  it.each([
    [401, 'authorization'],
    [407, 'proxy-authorization'],
  ] as const)(
    'when challenged with %i, then the retry has CSeq + 1, a fresh Via and an RFC 2617 %s',
    (status, header) => {
      const retry = authenticated(invite, challenge(status), 'acct', 'secret');
      expect(retry.headers.cseq).toEqual({ seq: 2, method: 'INVITE' });
      expect(retry.headers.via).toEqual([]);
      expect(retry.headers['call-id']).toBe('call-1');
      expect(retry.headers.from.params.tag).toBe('abc');
      expect(retry.content).toBe(invite.content);
      const [credentials] = retry.headers[header] ?? [];
      const unq = (v = '') => v.replace(/^"|"$/g, '');
      expect(unq(credentials?.username)).toBe('acct');
      expect(unq(credentials?.realm)).toBe('trunk');
      // RFC 2617 without qop: MD5(MD5(user:realm:password):nonce:MD5(method:uri)).
      const expected = md5(`${md5('acct:trunk:secret')}:n0nce:${md5(`INVITE:${invite.uri}`)}`);
      expect(unq(credentials?.response)).toBe(expected);
    },
  );
});

describe('final responses', () => {
  it.each([
    [486, { kind: 'busy' }],
    [600, { kind: 'busy' }],
    [408, { kind: 'no_answer' }],
    [480, { kind: 'no_answer' }],
    [603, { kind: 'rejected', status: 603 }],
    [503, { kind: 'rejected', status: 503 }],
    [302, { kind: 'rejected', status: 302 }],
  ])('when the final answer is %i, then the outcome is %j', (status, outcome) => {
    expect(outcomeOfFinal(status)).toEqual(outcome);
  });
});

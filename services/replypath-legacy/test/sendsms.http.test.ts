import type { AccountState } from '@msg/contracts';
import { describe, expect, it } from 'vitest';
import { type FakeReplypath, REPLYPATH_TOKEN } from './fake-replypath.js';
import { basicHeader, type TestLegacy, withFakeReplypath } from './support.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const DEPRECATION = '@1795478400';
const SUCCESSOR = '</replypath/v1/sendsms>; rel="successor-version"';

let replypath: FakeReplypath;
let legacy: TestLegacy;
let acct: AccountState;

withFakeReplypath({}, (started) => {
  ({ replypath, legacy, acct } = started);
});

describe('the three forms of spec 4.4', () => {
  it('when To and Msg are in the query, then 200 with one {DestinationAddress, TransactionId} and the replypath service got the send', async () => {
    const res = await legacy.getQuery(acct, { To: '0701234567', Msg: 'Hej, svara gärna' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual([
      { DestinationAddress: '+46701234567', TransactionId: expect.any(String) },
    ]);
    expect(res.body[0].TransactionId).toMatch(UUID);
    expect(replypath.seen).toEqual([
      {
        body: {
          accountId: acct.id,
          source: 'replypath-legacy',
          To: '0701234567',
          Msg: 'Hej, svara gärna',
        },
        authorization: `Bearer ${REPLYPATH_TOKEN}`,
      },
    ]);
  });

  it('when the query is form-encoded by hand (+ for a space, reserved characters unescaped), then it is read as such', async () => {
    const res = await legacy.raw(
      `GET /v1/replypath/sendsms?To=070-123+45+67&Msg=Hej+d%C3%A5!+(svara)*,; HTTP/1.1\r\nHost: t\r\nAuthorization: ${basicHeader(acct)}`,
    );
    expect(res.status).toBe(200);
    expect(replypath.seen[0]?.body).toMatchObject({
      To: '070-123 45 67',
      Msg: 'Hej då! (svara)*,;',
    });
  });

  it('when To and Msg are URL-encoded path segments, then they are decoded (a slash as %2F, UTF-8) and sent', async () => {
    const res = await legacy.getPath(
      acct,
      encodeURIComponent('+46701234567'),
      encodeURIComponent('ja/nej? 😀'),
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { DestinationAddress: '+46701234567', TransactionId: expect.any(String) },
    ]);
    expect(replypath.seen[0]?.body).toMatchObject({ To: '+46701234567', Msg: 'ja/nej? 😀' });
  });

  it('when To and Msg are in a JSON body, then 200 with the array', async () => {
    const res = await legacy.post(acct, { To: '0046701234567', Msg: 'Hello' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { DestinationAddress: '+46701234567', TransactionId: expect.any(String) },
    ]);
    expect(replypath.seen[0]?.body).toEqual({
      accountId: acct.id,
      source: 'replypath-legacy',
      To: '0046701234567',
      Msg: 'Hello',
    });
  });

  it('when the replypath service answers for several recipients, then one entry each, in its order, each with its own TransactionId', async () => {
    // Two Swedish numbers never fit in the 17 characters of To (spec 2.3/8.2), but the field is
    // defined as a list: the answer is one entry per result, however many there are.
    const res = await legacy.post(acct, { To: '+4670123,+4670124', Msg: 'Hello' });
    expect(res.status).toBe(200);
    expect(res.body.map((r: { DestinationAddress: string }) => r.DestinationAddress)).toEqual([
      '+4670123',
      '+4670124',
    ]);
    expect(new Set(res.body.map((r: { TransactionId: string }) => r.TransactionId)).size).toBe(2);
  });

  it('when the replypath service answers with the originator, then the legacy answer leaves it out (spec 2.4: two fields)', async () => {
    const res = await legacy.getQuery(acct, { To: '0701234567', Msg: 'Hello' });
    expect(Object.keys(res.body[0]).sort()).toEqual(['DestinationAddress', 'TransactionId']);
  });
});

describe('deprecation (spec 9)', () => {
  it.each([
    ['a 200', () => legacy.getQuery(acct, { To: '0701234567', Msg: 'Hello' }), 200],
    ['a 400', () => legacy.getQuery(acct, { To: '0701234567' }), 400],
    ['a 401', () => legacy.getQuery(acct, { To: '0701234567', Msg: 'x' }, 'wrong password'), 401],
    ['a 404', () => legacy.getPath(acct, 'a', 'b/c'), 404],
  ])(
    'when the answer is %s, then it carries Deprecation (RFC 9745) and the successor Link',
    async (_name, call, status) => {
      const res = await call();
      expect(res.status).toBe(status);
      expect(res.headers.deprecation).toBe(DEPRECATION);
      expect(res.headers.link).toBe(SUCCESSOR);
    },
  );
});

import type { AccountState } from '@msg/contracts';
import { describe, expect, it } from 'vitest';
import { REFUSALS } from '../src/access/legacy-access.js';
import type { FakeReplypath } from './fake-replypath.js';
import { type TestLegacy, withFakeReplypath } from './support.js';

const SEND = { To: '0701234567', Msg: 'Hello' };
const CHALLENGE = 'Basic realm="Reply-path"';

let replypath: FakeReplypath;
let legacy: TestLegacy;

withFakeReplypath({}, (started) => {
  ({ replypath, legacy } = started);
});

/** The three forms, so every refusal is shown on each. */
const FORMS = [
  ['query', (acct: AccountState, password?: string) => legacy.getQuery(acct, SEND, password)],
  [
    'path',
    (acct: AccountState, password?: string) => legacy.getPath(acct, SEND.To, SEND.Msg, password),
  ],
  ['body', (acct: AccountState, password?: string) => legacy.post(acct, SEND, password)],
] as const;

describe('401 of spec 7.3 and rule 5.3, each with its own message and the Basic challenge', () => {
  it.each(FORMS)(
    'when the password is wrong (%s form), then 401 "wrong user or password" and nothing is sent',
    async (_form, call) => {
      const acct = await legacy.publishAccount(legacy.account());
      const res = await call(acct, 'not the password');
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe(CHALLENGE);
      expect(res.body).toEqual({ status: '401 Unauthorized', message: REFUSALS.credentials });
      expect(replypath.seen).toEqual([]);
    },
  );

  it('when the user does not exist, then the same 401 as a wrong password (names are not revealed)', async () => {
    const res = await legacy.getQuery(legacy.account({ name: 'NoSuchAccount' }), SEND);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ status: '401 Unauthorized', message: REFUSALS.credentials });
  });

  it('when there are no credentials at all, then 401 with the challenge', async () => {
    const res = await legacy.raw(
      'GET /v1/replypath/sendsms?To=0701234567&Msg=x HTTP/1.1\r\nHost: t',
    );
    expect(res.status).toBe(401);
    expect(res.headers).toMatch(/www-authenticate: Basic realm="Reply-path"/i);
    expect(JSON.parse(res.body)).toEqual({
      status: '401 Unauthorized',
      message: REFUSALS.credentials,
    });
  });

  it.each([
    ['inactive (contract terminated)', { status: 'disabled' as const }, REFUSALS.inactive],
    [
      'without the replypath permission (no access to the service)',
      { permissions: ['sms' as const] },
      REFUSALS.noAccess,
    ],
    [
      'prepaid without funds',
      { billing: { mode: 'prepaid' as const, fundsAvailable: false } },
      REFUSALS.noFunds,
    ],
    [
      'IP restricted and the caller not whitelisted',
      { ipAllowList: ['203.0.113.7', '10.0.0.0/8'] },
      REFUSALS.ip,
    ],
  ])(
    'when the account is %s, then 401 with its own message on every form and nothing is sent',
    async (_name, overrides, message) => {
      const acct = await legacy.publishAccount(legacy.account(overrides));
      for (const [form, call] of FORMS) {
        const res = await call(acct);
        expect(res.status, form).toBe(401);
        expect(res.headers['www-authenticate'], form).toBe(CHALLENGE);
        expect(res.body, form).toEqual({ status: '401 Unauthorized', message });
      }
      expect(replypath.seen).toEqual([]);
    },
  );

  it('when the five messages are compared, then no two are alike', () => {
    expect(new Set(Object.values(REFUSALS)).size).toBe(5);
  });

  it.each([
    ['prepaid with funds', { billing: { mode: 'prepaid' as const, fundsAvailable: true } }],
    ['postpaid', { billing: { mode: 'postpaid' as const, fundsAvailable: false } }],
    ['IP restricted and the caller whitelisted (IPv4)', { ipAllowList: ['127.0.0.0/8'] }],
  ])('when the account is %s, then it may send', async (_name, overrides) => {
    const acct = await legacy.publishAccount(legacy.account(overrides));
    const res = await legacy.getQuery(acct, SEND);
    expect(res.status).toBe(200);
  });

  it('when the account is re-enabled, then the next request is accepted (the directory is live)', async () => {
    const acct = await legacy.publishAccount(legacy.account({ status: 'disabled' }));
    expect((await legacy.getQuery(acct, SEND)).status).toBe(401);
    await legacy.publishAccount({ ...acct, status: 'active', version: acct.version + 1 });
    expect((await legacy.getQuery(acct, SEND)).status).toBe(200);
  });

  it.each([403, 402])(
    'when the replypath service refuses the send for funds (its exact prepaid debit: %i INSUFFICIENT_FUNDS), then 401 "prepaid account without funds"',
    async (status) => {
      const acct = await legacy.publishAccount(legacy.account());
      replypath.answerNext({
        status,
        body: {
          code: 'INSUFFICIENT_FUNDS',
          message: 'prepaid balance does not cover 1 SMS part; top up the account',
        },
      });
      const res = await legacy.post(acct, SEND);
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe(CHALLENGE);
      expect(res.body).toEqual({ status: '401 Unauthorized', message: REFUSALS.noFunds });
    },
  );

  it('when the replypath service refuses the account with another 403, then 401 with its message', async () => {
    const acct = await legacy.publishAccount(legacy.account());
    replypath.answerNext({
      status: 403,
      body: { code: 'FORBIDDEN', message: 'account disabled' },
    });
    const res = await legacy.post(acct, SEND);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ status: '401 Unauthorized', message: 'account disabled' });
  });
});

describe('429 (not in the table of 7.3)', () => {
  it("when the account's request rate is spent, then 429 with Retry-After in this format and nothing more is sent", async () => {
    const acct = await legacy.publishAccount(
      legacy.account({ rateLimit: { perSecond: 0.01, burst: 1 } }),
    );
    expect((await legacy.getQuery(acct, SEND)).status).toBe(200);
    const res = await legacy.getQuery(acct, SEND);
    expect(res.status).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(res.body).toEqual({ status: '429 Too Many Requests', message: 'Rate limit exceeded' });
    expect(replypath.seen).toHaveLength(1);
  });

  it('when the replypath service has no free number for the recipient, then 429 with its Retry-After and message', async () => {
    const acct = await legacy.publishAccount(legacy.account());
    replypath.answerNext({
      status: 429,
      headers: { 'Retry-After': '120' },
      body: {
        code: 'POOL_EXHAUSTED',
        message: 'no reply-path number is free for +46701234567 now',
      },
    });
    const res = await legacy.getQuery(acct, SEND);
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBe('120');
    expect(res.body).toEqual({
      status: '429 Too Many Requests',
      message: 'no reply-path number is free for +46701234567 now',
    });
  });
});

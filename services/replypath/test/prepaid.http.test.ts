import type { AccountState } from '@msg/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestReplypath, type TestReplypath, uniqueRecipient } from './support.js';

let rp: TestReplypath;

beforeAll(async () => {
  rp = await startTestReplypath();
}, 90_000);

afterAll(async () => {
  await rp?.stop();
});

// 161 GSM-7 characters: two parts.
const TWO_PARTS = 'x'.repeat(161);

async function prepaid(credits: number): Promise<AccountState> {
  const account = await rp.publishAccount(
    rp.account({ billing: { mode: 'prepaid', fundsAvailable: credits > 0 } }),
  );
  rp.billing.setBalance(account.id, credits);
  return account;
}

const NO_FUNDS = {
  code: 'INSUFFICIENT_FUNDS',
  message: expect.stringMatching(/^prepaid balance does not cover \d+ SMS parts?; top up/),
};

describe('POST /replypath/v1/sendsms for a prepaid account (rule 5.3)', () => {
  it('when the balance covers the parts, then 200 and one credit per part is debited under the TransactionId', async () => {
    const acct = await prepaid(3);
    const res = await rp.send(acct, { To: uniqueRecipient().national, Msg: TWO_PARTS });
    expect(res.status, res.text).toBe(200);
    expect(rp.billing.balance(acct.id)).toBe(1);
    expect(rp.billing.debited(acct.id)).toEqual([res.body.TransactionId]);
  });

  it('when the balance is empty, then 403 INSUFFICIENT_FUNDS (7.2 has no 402) and nothing is stored or sent; after a top-up, 200', async () => {
    const acct = await prepaid(0);
    const res = await rp.send(acct, { To: uniqueRecipient().national, Msg: 'Hej' });
    expect(res.status, res.text).toBe(403);
    expect(res.body).toEqual(NO_FUNDS);
    expect(await rp.reservationsOf(acct)).toBe(0);
    expect(rp.outbound.filter((e) => e.payload.accountId === acct.id)).toEqual([]);

    rp.billing.setBalance(acct.id, 1);
    expect((await rp.send(acct, { To: uniqueRecipient().national, Msg: 'Hej' })).status).toBe(200);
  });

  it('when the balance covers only some of several recipients, then 403 for the whole request and nothing stays paid', async () => {
    const acct = await prepaid(3);
    // Two recipients of two parts each: 4 credits.
    const res = await rp.send(acct, { To: '08123601;08123602', Msg: TWO_PARTS });
    expect(res.status, res.text).toBe(403);
    expect(res.body).toEqual({ ...NO_FUNDS, message: expect.stringContaining('4 SMS parts') });
    expect(rp.billing.balance(acct.id)).toBe(3);
    expect(rp.billing.debited(acct.id)).toEqual([]);
    expect(await rp.reservationsOf(acct)).toBe(0);
  });

  it('when 10 one-part sends race for 4 credits, then exactly 4 are accepted and 6 refused with 403', async () => {
    const acct = await prepaid(4);
    const responses = await Promise.all(
      Array.from({ length: 10 }, () =>
        rp.send(acct, { To: uniqueRecipient().national, Msg: 'Hej' }),
      ),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([...Array<number>(4).fill(200), ...Array<number>(6).fill(403)]);
    expect(rp.billing.balance(acct.id)).toBe(0);
    expect(await rp.reservationsOf(acct)).toBe(4);
  });

  it('when 4 sends of two recipients each race for 5 credits, then exactly 2 are accepted and the credit left over stays', async () => {
    const acct = await prepaid(5);
    const responses = await Promise.all(
      ['08123611;08123612', '08123613;08123614', '08123615;08123616', '08123617;08123618'].map(
        (To) => rp.send(acct, { To, Msg: 'Hej' }),
      ),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 403, 403]);
    expect(rp.billing.balance(acct.id)).toBe(1);
    expect(await rp.reservationsOf(acct)).toBe(4);
  });

  it('when no number is free for the recipient (429 POOL_EXHAUSTED), then the paid credits come back', async () => {
    const acct = await prepaid(10);
    const to = uniqueRecipient().national;
    // The pool has 3 numbers: the 4th open message to one recipient finds none.
    for (let i = 0; i < 3; i += 1) {
      expect((await rp.send(acct, { To: to, Msg: 'Hej' })).status).toBe(200);
    }
    const exhausted = await rp.send(acct, { To: to, Msg: 'Hej' });
    expect(exhausted.status, exhausted.text).toBe(429);
    expect(exhausted.body.code).toBe('POOL_EXHAUSTED');
    expect(rp.billing.balance(acct.id)).toBe(7);
    expect(rp.billing.debited(acct.id)).toHaveLength(3);
  });

  it('when the recipient opted out, then 400 and the account is never charged', async () => {
    const acct = await prepaid(5);
    const to = uniqueRecipient();
    await rp.setOptOut(acct, to.e164, true);
    const calls = rp.billing.calls;
    expect((await rp.send(acct, { To: to.national, Msg: 'Hej' })).status).toBe(400);
    expect(rp.billing.calls).toBe(calls);
    expect(rp.billing.balance(acct.id)).toBe(5);
  });

  it('when the send is a dry run (instantiate=false), then it is never charged, even with an empty balance', async () => {
    const acct = await prepaid(0);
    const calls = rp.billing.calls;
    const res = await rp.send(
      acct,
      { To: uniqueRecipient().national, Msg: 'Hej' },
      '?instantiate=false',
    );
    expect(res.status, res.text).toBe(200);
    expect(rp.billing.calls).toBe(calls);
  });

  it('when a send is retried with the same Idempotency-Key, then it is paid once', async () => {
    const acct = await prepaid(5);
    const body = { To: uniqueRecipient().national, Msg: 'Hej' };
    const send = () => rp.send(acct, body).set('idempotency-key', `key-${acct.id}`);
    const first = await send();
    const again = await send();
    expect(first.status, first.text).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(rp.billing.balance(acct.id)).toBe(4);
  });
});

describe('POST /internal/v1/sendsms for a prepaid account', () => {
  it('when the balance is empty, then 403 INSUFFICIENT_FUNDS (the legacy service answers its 401)', async () => {
    const acct = await prepaid(0);
    const res = await rp.internalSendFor(acct, uniqueRecipient().national);
    expect(res.status, res.text).toBe(403);
    expect(res.body).toEqual(NO_FUNDS);
  });

  it('when the balance covers it, then 200 and the part is debited', async () => {
    const acct = await prepaid(1);
    const res = await rp.internalSendFor(acct, uniqueRecipient().national);
    expect(res.status, res.text).toBe(200);
    expect(rp.billing.debited(acct.id)).toEqual([res.body.results[0].TransactionId]);
  });
});

describe('a postpaid account', () => {
  it('when it sends, then the billing API is never called', async () => {
    const calls = rp.billing.calls;
    const implicit = await rp.publishAccount(rp.account());
    const explicit = await rp.publishAccount(
      rp.account({ billing: { mode: 'postpaid', fundsAvailable: false } }),
    );
    expect(
      (await rp.send(implicit, { To: uniqueRecipient().national, Msg: TWO_PARTS })).status,
    ).toBe(200);
    expect(
      (await rp.send(explicit, { To: uniqueRecipient().national, Msg: TWO_PARTS })).status,
    ).toBe(200);
    expect(rp.billing.calls).toBe(calls);
  });
});

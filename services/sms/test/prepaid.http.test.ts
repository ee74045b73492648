import { type AccountState, Topics } from '@msg/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { about, startTestSms, type TestSms } from './support.js';

let sms: TestSms;

beforeAll(async () => {
  sms = await startTestSms();
}, 60_000);

afterAll(async () => {
  await sms?.stop();
});

const oneLine = { to: '+46701234567', message: 'Hej', from: 'Acme' };
// 161 GSM-7 characters: two parts.
const twoParts = { ...oneLine, message: 'x'.repeat(161) };

async function prepaid(credits: number, fundsAvailable = credits > 0): Promise<AccountState> {
  const account = await sms.publishAccount(
    sms.account({ billing: { mode: 'prepaid', fundsAvailable } }),
  );
  sms.billing.setBalance(account.id, credits);
  return account;
}

async function messagesOf(accountId: string): Promise<number> {
  const { rows } = await sms.pool.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM sms.message WHERE account_id = $1',
    [accountId],
  );
  return rows[0]?.count ?? 0;
}

describe('sendSms for a prepaid account (rule 5.3)', () => {
  it('when the balance covers the parts, then 202 and the parts are debited under the message id', async () => {
    const account = await prepaid(3);
    const res = await sms.send(account, twoParts);
    expect(res.status).toBe(202);
    expect(sms.billing.balance(account.id)).toBe(1);
    expect(sms.billing.debited(account.id)).toEqual([res.body.messageId]);
  });

  it('when the balance does not cover the parts, then 402 INSUFFICIENT_FUNDS, nothing is stored or sent, and the balance is kept', async () => {
    const account = await prepaid(1);
    const res = await sms.send(account, twoParts);
    expect(res.status).toBe(402);
    expect(res.body).toEqual({
      code: 'INSUFFICIENT_FUNDS',
      message: 'prepaid balance does not cover 2 SMS parts; top up the account',
    });
    expect(await messagesOf(account.id)).toBe(0);
    expect(
      sms.published(Topics.smsOutbound, (p) => JSON.stringify(p).includes(account.id)),
    ).toEqual([]);
    expect(sms.billing.balance(account.id)).toBe(1);
    // The one part left still pays for a one-part message.
    expect((await sms.send(account, oneLine)).status).toBe(202);
  });

  it('when the balance is empty, then 402; after a top-up, then 202 again', async () => {
    const account = await prepaid(0);
    expect((await sms.send(account, oneLine)).status).toBe(402);
    sms.billing.setBalance(account.id, 1);
    const res = await sms.send(account, oneLine);
    expect(res.status).toBe(202);
    expect(sms.published(Topics.smsOutbound, about(res.body.messageId))).toBeDefined();
  });

  it('when 30 one-part sends race for 10 credits, then exactly 10 are accepted and 20 refused with 402', async () => {
    const account = await prepaid(10);
    const responses = await Promise.all(
      Array.from({ length: 30 }, () => sms.send(account, oneLine)),
    );
    const statuses = responses.map((res) => res.status).sort();
    expect(statuses).toEqual([...Array<number>(10).fill(202), ...Array<number>(20).fill(402)]);
    expect(sms.billing.balance(account.id)).toBe(0);
    expect(await messagesOf(account.id)).toBe(10);
  });

  it('when the paid message cannot be stored, then the send fails and its credits come back', async () => {
    const account = await prepaid(2);
    // A store failure for this one sender only (the database refuses the row).
    await sms.pool.query(
      "ALTER TABLE sms.message ADD CONSTRAINT test_refuse_sender CHECK (sender <> 'FailStore')",
    );
    try {
      const res = await sms.send(account, { ...oneLine, from: 'FailStore' });
      expect(res.status).toBe(500);
      expect(sms.billing.balance(account.id)).toBe(2);
      expect(sms.billing.debited(account.id)).toEqual([]);
    } finally {
      await sms.pool.query('ALTER TABLE sms.message DROP CONSTRAINT test_refuse_sender');
    }
  });

  it('when the body is invalid, then 400 and nothing is debited', async () => {
    const account = await prepaid(5);
    const res = await sms.send(account, { ...oneLine, to: 'nope' });
    expect(res.status).toBe(400);
    expect(sms.billing.balance(account.id)).toBe(5);
  });
});

describe('sendSms for a postpaid account', () => {
  it('when it sends, then 202 and the billing API is never called', async () => {
    const before = sms.billing.calls;
    const postpaid = await sms.publishAccount(sms.account());
    const explicit = await sms.publishAccount(
      sms.account({ billing: { mode: 'postpaid', fundsAvailable: true } }),
    );
    expect((await sms.send(postpaid, twoParts)).status).toBe(202);
    expect((await sms.send(explicit, twoParts)).status).toBe(202);
    expect(sms.billing.calls).toBe(before);
  });
});

describe('sendSms for an inactive account', () => {
  it('when the account is disabled (inactive), then 403 before anything is debited', async () => {
    const account = await sms.publishAccount(
      sms.account({ status: 'disabled', billing: { mode: 'prepaid', fundsAvailable: true } }),
    );
    sms.billing.setBalance(account.id, 5);
    const res = await sms.send(account, oneLine);
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/disabled/);
    expect(sms.billing.balance(account.id)).toBe(5);
  });
});

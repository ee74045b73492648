import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type pg from 'pg';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeOldDebits } from '../src/accounts/debit-retention.js';
import { startAdminOnScratchDatabase } from './scratch-database.js';
import { ADMIN_TOKEN, BILLING_TOKEN } from './support.js';

const SENDS = 30;
const CREDITS = 10;
const operator = { authorization: `Bearer ${ADMIN_TOKEN}` };
const billing = { authorization: `Bearer ${BILLING_TOKEN}` };

let scratch: Awaited<ReturnType<typeof startAdminOnScratchDatabase>>;
let pool: pg.Pool;
let server: Server;

beforeAll(async () => {
  scratch = await startAdminOnScratchDatabase('admin_debit_it', SENDS);
  ({ pool, server } = scratch);
}, 60_000);

afterAll(async () => {
  await scratch?.stop();
});

async function prepaidAccount(credits: number): Promise<string> {
  const created = await request(server)
    .post('/internal/v1/accounts')
    .set(operator)
    .send({ name: `prepaid-${randomBytes(4).toString('hex')}`, billingMode: 'prepaid' });
  expect(created.status).toBe(201);
  const topped = await request(server)
    .post(`/internal/v1/accounts/${created.body.id}/top-ups`)
    .set(operator)
    .send({ credits });
  expect(topped.body.billing.balance).toBe(credits);
  return created.body.id;
}

const debit = (id: string, reference: string, parts = 1) =>
  request(server)
    .post(`/internal/v1/accounts/${id}/debits`)
    .set(billing)
    .send({ items: [{ reference, parts }] });

async function stored(id: string) {
  const { rows } = await pool.query<{ balance: string; debits: number; parts: number }>(
    `SELECT a.balance::text AS balance, count(d.reference)::int AS debits,
            coalesce(sum(d.parts), 0)::int AS parts
       FROM admin.account a LEFT JOIN admin.account_debit d ON d.account_id = a.id
      WHERE a.id = $1 GROUP BY a.balance`,
    [id],
  );
  return rows[0];
}

describe('debitAccount under concurrency (real Postgres)', () => {
  it(`when ${SENDS} one-part debits race for a balance of ${CREDITS}, then exactly ${CREDITS} are paid and the balance ends at 0, never below`, async () => {
    const id = await prepaidAccount(CREDITS);
    const responses = await Promise.all(
      Array.from({ length: SENDS }, (_, i) => debit(id, `msg-${i}`)),
    );
    expect(responses.map((res) => res.status)).toEqual(Array<number>(SENDS).fill(200));
    const paid = responses.filter((res) => res.body.results[0].debited === true);
    expect(paid).toHaveLength(CREDITS);
    expect(Math.min(...responses.map((res) => res.body.balance as number))).toBe(0);
    expect(await stored(id)).toEqual({ balance: '0', debits: CREDITS, parts: CREDITS });
  });

  it('when one reference is debited by many callers at once, then it is paid once', async () => {
    const id = await prepaidAccount(5);
    const responses = await Promise.all(Array.from({ length: 10 }, () => debit(id, 'same', 2)));
    expect(responses.map((res) => res.status)).toEqual(Array<number>(10).fill(200));
    expect(responses.every((res) => res.body.results[0].debited === true)).toBe(true);
    expect(await stored(id)).toEqual({ balance: '3', debits: 1, parts: 2 });
  });

  it('when debits of several parts race with top-ups, then every credit is accounted for', async () => {
    const id = await prepaidAccount(7);
    const calls = [
      ...Array.from({ length: 12 }, (_, i) => debit(id, `mix-${i}`, 3)),
      ...Array.from({ length: 3 }, () =>
        request(server)
          .post(`/internal/v1/accounts/${id}/top-ups`)
          .set(operator)
          .send({ credits: 4 }),
      ),
    ];
    const responses = await Promise.all(calls);
    expect(responses.map((res) => res.status)).toEqual(Array<number>(15).fill(200));
    const paid = responses
      .slice(0, 12)
      .filter((res) => res.body.results[0].debited === true).length;
    const after = await stored(id);
    // 7 + 3 × 4 = 19 credits in; 3 per paid debit out; what is left is the rest, never negative.
    expect(after).toEqual({ balance: String(19 - 3 * paid), debits: paid, parts: 3 * paid });
    expect(paid).toBeGreaterThanOrEqual(2);
    expect(paid).toBeLessThanOrEqual(6);
  });
});

describe('debit retention (real Postgres)', () => {
  it('when debit records are older than the retention, then only they are deleted', async () => {
    const id = await prepaidAccount(5);
    await debit(id, 'old');
    await debit(id, 'recent');
    await pool.query(
      `UPDATE admin.account_debit SET created_at = now() - interval '31 days'
        WHERE account_id = $1 AND reference = 'old'`,
      [id],
    );
    expect(await purgeOldDebits(pool, 30 * 24 * 3_600_000)).toBe(1);
    const { rows } = await pool.query<{ reference: string }>(
      'SELECT reference FROM admin.account_debit WHERE account_id = $1',
      [id],
    );
    expect(rows.map((r) => r.reference)).toEqual(['recent']);
    // Within the retention a retry stays free.
    expect((await debit(id, 'recent')).body.balance).toBe(3);
  });
});

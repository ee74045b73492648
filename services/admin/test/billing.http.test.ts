import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AccountState } from '@msg/contracts';
import { createLogger } from '@msg/logger';
import { createPrepaidBilling } from '@msg/sms-submit';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN_TOKEN, BILLING_TOKEN, startTestAdmin } from './support.js';

let admin: Awaited<ReturnType<typeof startTestAdmin>>;
let server: Server;
let adminUrl: string;
const operator = { authorization: `Bearer ${ADMIN_TOKEN}` };
const billing = { authorization: `Bearer ${BILLING_TOKEN}` };
const base = '/internal/v1/accounts';
let counter = 0;
const logger = createLogger({ service: 'billing-client-test', level: 'error' });

beforeAll(async () => {
  admin = await startTestAdmin();
  server = admin.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  adminUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 60_000);
afterAll(async () => {
  server?.close();
  await admin?.stop();
});

const api = () => request(admin.app);
async function create(body: Record<string, unknown> = {}) {
  counter += 1;
  const res = await api()
    .post(base)
    .set(operator)
    .send({ name: `bill${Date.now().toString(36)}${counter}`, ...body });
  expect(res.status).toBe(201);
  return res.body as { id: string; version: number; billing: { mode: string; balance: number } };
}
const topUp = (id: string, credits: number) =>
  api().post(`${base}/${id}/top-ups`).set(operator).send({ credits });
const debit = (id: string, items: { reference: string; parts: number }[]) =>
  api().post(`${base}/${id}/debits`).set(billing).send({ items });
const balanceOf = async (id: string) =>
  (await api().get(`${base}/${id}`).set(operator)).body.billing.balance as number;

describe('billing mode and top-ups', () => {
  it('when an account is created without a billing mode, then it is postpaid and published as funded', async () => {
    const account = await create();
    expect(account.billing).toEqual({ mode: 'postpaid', balance: 0 });
    const state = await admin.publishedState(account.id, 1);
    expect(state.billing).toEqual({ mode: 'postpaid', fundsAvailable: true });
  });

  it('when a prepaid account is created, then its empty balance is published as no funds; a top-up shows the balance and publishes funds', async () => {
    const account = await create({ billingMode: 'prepaid' });
    expect(account.billing).toEqual({ mode: 'prepaid', balance: 0 });
    expect((await admin.publishedState(account.id, 1)).billing).toEqual({
      mode: 'prepaid',
      fundsAvailable: false,
    });

    const res = await topUp(account.id, 25);
    expect(res.status).toBe(200);
    expect(res.body.billing).toEqual({ mode: 'prepaid', balance: 25 });
    expect((await admin.publishedState(account.id, 2)).billing?.fundsAvailable).toBe(true);
  });

  it('when the billing mode is switched by update, then the state follows and the balance is kept', async () => {
    const account = await create();
    expect((await topUp(account.id, 3)).status).toBe(200);
    const res = await api().patch(`${base}/${account.id}`).set(operator).send({
      billingMode: 'prepaid',
    });
    expect(res.status).toBe(200);
    expect(res.body.billing).toEqual({ mode: 'prepaid', balance: 3 });
  });

  it('when a top-up or billing mode breaks a rule, then 400 naming the field', async () => {
    const account = await create();
    const zero = await topUp(account.id, 0);
    expect(zero.status).toBe(400);
    expect(JSON.stringify(zero.body.details)).toMatch(/credits/);
    const fraction = await topUp(account.id, 1.5);
    expect(fraction.status).toBe(400);
    const mode = await api().patch(`${base}/${account.id}`).set(operator).send({
      billingMode: 'credit',
    });
    expect(mode.status).toBe(400);
    expect(JSON.stringify(mode.body.details)).toMatch(/billingMode/);
  });

  it('when the billing token is used for a top-up, then 401 and nothing is added', async () => {
    const account = await create({ billingMode: 'prepaid' });
    const res = await api().post(`${base}/${account.id}/top-ups`).set(billing).send({ credits: 5 });
    expect(res.status).toBe(401);
    expect(await balanceOf(account.id)).toBe(0);
  });
});

describe('debitAccount', () => {
  it('when items exceed the balance, then they are paid in order until one does not fit, and every later one is refused', async () => {
    const account = await create({ billingMode: 'prepaid' });
    await topUp(account.id, 5);
    const res = await debit(account.id, [
      { reference: 'm1', parts: 2 },
      { reference: 'm2', parts: 2 },
      { reference: 'm3', parts: 2 },
      { reference: 'm4', parts: 1 },
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      results: [
        { reference: 'm1', debited: true },
        { reference: 'm2', debited: true },
        { reference: 'm3', debited: false },
        { reference: 'm4', debited: false },
      ],
      balance: 1,
    });
    expect(await balanceOf(account.id)).toBe(1);
  });

  it('when a reference is debited again, then it answers paid and costs nothing', async () => {
    const account = await create({ billingMode: 'prepaid' });
    await topUp(account.id, 4);
    expect((await debit(account.id, [{ reference: 'same', parts: 3 }])).body.balance).toBe(1);
    const again = await debit(account.id, [
      { reference: 'same', parts: 3 },
      { reference: 'same', parts: 3 },
    ]);
    expect(again.body).toEqual({
      results: [
        { reference: 'same', debited: true },
        { reference: 'same', debited: true },
      ],
      balance: 1,
    });
    expect(await balanceOf(account.id)).toBe(1);
  });

  it('when a debit empties the balance, then no funds is published; a top-up restores sending', async () => {
    const account = await create({ billingMode: 'prepaid' });
    const funded = (await topUp(account.id, 2)).body.version as number;
    expect((await debit(account.id, [{ reference: 'a', parts: 2 }])).body.balance).toBe(0);
    expect((await admin.publishedState(account.id, funded + 1)).billing?.fundsAvailable).toBe(
      false,
    );
    expect((await debit(account.id, [{ reference: 'b', parts: 1 }])).body.results).toEqual([
      { reference: 'b', debited: false },
    ]);

    const refilled = await topUp(account.id, 1);
    expect(refilled.body.billing.balance).toBe(1);
    expect(
      (await admin.publishedState(account.id, refilled.body.version)).billing?.fundsAvailable,
    ).toBe(true);
    expect((await debit(account.id, [{ reference: 'b', parts: 1 }])).body.results).toEqual([
      { reference: 'b', debited: true },
    ]);
  });

  it('when the account is postpaid, then every item is paid and the balance is untouched', async () => {
    const account = await create();
    await topUp(account.id, 1);
    const res = await debit(account.id, [
      { reference: 'p1', parts: 10 },
      { reference: 'p2', parts: 10 },
    ]);
    expect(res.body.results.map((r: { debited: boolean }) => r.debited)).toEqual([true, true]);
    expect(await balanceOf(account.id)).toBe(1);
  });

  it('when the operator token or no token is used, then 401 and nothing is debited', async () => {
    const account = await create({ billingMode: 'prepaid' });
    await topUp(account.id, 3);
    const items = [{ reference: 'x', parts: 1 }];
    expect(
      (await api().post(`${base}/${account.id}/debits`).set(operator).send({ items })).status,
    ).toBe(401);
    expect((await api().post(`${base}/${account.id}/debits`).send({ items })).status).toBe(401);
    expect(await balanceOf(account.id)).toBe(3);
  });

  it('when the body breaks a rule or the account is unknown, then 400 naming the field or 404', async () => {
    const account = await create({ billingMode: 'prepaid' });
    const tooMany = await debit(account.id, [{ reference: 'x', parts: 11 }]);
    expect(tooMany.status).toBe(400);
    expect(JSON.stringify(tooMany.body.details)).toMatch(/parts/);
    expect((await debit(account.id, [])).status).toBe(400);
    expect((await debit(account.id, [{ reference: '', parts: 1 }])).status).toBe(400);
    const unknown = await debit('00000000-0000-4000-8000-000000000000', [
      { reference: 'x', parts: 1 },
    ]);
    expect(unknown.status).toBe(404);
  });
});

describe('refundDebit', () => {
  const refund = (id: string, reference: string) =>
    api()
      .delete(`${base}/${id}/debits/${encodeURIComponent(reference)}`)
      .set(billing);

  it('when a debit is refunded, then its credits come back once and the reference may be paid again', async () => {
    const account = await create({ billingMode: 'prepaid' });
    await topUp(account.id, 5);
    await debit(account.id, [{ reference: 'batch:x:1', parts: 3 }]);
    expect((await refund(account.id, 'batch:x:1')).body).toEqual({ refunded: true, balance: 5 });
    expect((await refund(account.id, 'batch:x:1')).body).toEqual({ refunded: false, balance: 5 });
    expect((await refund(account.id, 'never')).body).toEqual({ refunded: false, balance: 5 });
    expect((await debit(account.id, [{ reference: 'batch:x:1', parts: 3 }])).body.balance).toBe(2);
  });

  it('when a refund refills an empty balance, then funds are published again', async () => {
    const account = await create({ billingMode: 'prepaid' });
    await topUp(account.id, 1);
    await debit(account.id, [{ reference: 'only', parts: 1 }]);
    const emptied = (await api().get(`${base}/${account.id}`).set(operator)).body.version;
    expect((await admin.publishedState(account.id, emptied)).billing?.fundsAvailable).toBe(false);
    expect((await refund(account.id, 'only')).body).toEqual({ refunded: true, balance: 1 });
    expect((await admin.publishedState(account.id, emptied + 1)).billing?.fundsAvailable).toBe(
      true,
    );
  });

  it('when the operator token is used, then 401 and nothing comes back', async () => {
    const account = await create({ billingMode: 'prepaid' });
    await topUp(account.id, 2);
    await debit(account.id, [{ reference: 'r', parts: 2 }]);
    expect((await api().delete(`${base}/${account.id}/debits/r`).set(operator)).status).toBe(401);
    expect(await balanceOf(account.id)).toBe(0);
  });
});

describe('createPrepaidBilling (@msg/sms-submit) against the admin service', () => {
  const stateOf = async (id: string, version: number): Promise<AccountState> =>
    admin.publishedState(id, version);

  it('when a prepaid account has funds, then chargeInOrder pays in order as far as they go, and a paid reference costs nothing again', async () => {
    const account = await create({ billingMode: 'prepaid' });
    const funded = await topUp(account.id, 3);
    const state = await stateOf(account.id, funded.body.version);
    const client = createPrepaidBilling({ adminUrl, token: BILLING_TOKEN, logger: logger });
    expect(await client.chargeInOrder(state, [{ reference: 'c1', parts: 2 }])).toEqual([true]);
    expect(await client.chargeInOrder(state, [{ reference: 'c2', parts: 2 }])).toEqual([false]);
    expect(
      await client.chargeInOrder(state, [
        { reference: 'c1', parts: 2 },
        { reference: 'c3', parts: 1 },
        { reference: 'c4', parts: 1 },
      ]),
    ).toEqual([true, true, false]);
    expect(await balanceOf(account.id)).toBe(0);
  });

  it('when a charge is refunded through the client, then the credits come back; postpaid refunds nothing', async () => {
    const account = await create({ billingMode: 'prepaid' });
    const state = await stateOf(account.id, (await topUp(account.id, 2)).body.version);
    const client = createPrepaidBilling({ adminUrl, token: BILLING_TOKEN, logger });
    expect(await client.chargeInOrder(state, [{ reference: 'lost', parts: 2 }])).toEqual([true]);
    expect(await balanceOf(account.id)).toBe(0);
    expect(await client.refund(state, 'lost')).toBe(true);
    expect(await balanceOf(account.id)).toBe(2);
    const postpaid = await stateOf((await create()).id, 1);
    expect(await client.refund(postpaid, 'lost')).toBe(false);
  });

  it('when the account is postpaid, then nothing is called', async () => {
    const account = await create();
    const state = await stateOf(account.id, 1);
    const fetch = vi.fn<typeof globalThis.fetch>();
    const client = createPrepaidBilling({
      adminUrl,
      token: BILLING_TOKEN,
      logger: logger,
      fetch,
    });
    expect(
      await client.chargeInOrder(state, [
        { reference: 'p', parts: 10 },
        { reference: 'q', parts: 1 },
      ]),
    ).toEqual([true, true]);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('when the billing API is not configured or refuses the token, then 503, never a free send', async () => {
    const account = await create({ billingMode: 'prepaid' });
    const state = await stateOf(account.id, (await topUp(account.id, 5)).body.version);
    const unconfigured = createPrepaidBilling({
      adminUrl: undefined,
      token: undefined,
      logger: logger,
    });
    const item = [{ reference: 'u', parts: 1 }];
    await expect(unconfigured.chargeInOrder(state, item)).rejects.toMatchObject({ status: 503 });
    const wrongToken = createPrepaidBilling({
      adminUrl,
      token: 'wrong-token-0123456789',
      logger: logger,
    });
    await expect(wrongToken.chargeInOrder(state, item)).rejects.toMatchObject({ status: 503 });
    expect(await balanceOf(account.id)).toBe(5);
  });
});

import type { AccountState } from '@msg/contracts';
import { createPrepaidBilling, type PrepaidBilling } from '@msg/sms-submit';
import { type FakeBilling, startFakeBilling } from '@msg/testing';
import type pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { expandNextChunk } from '../src/processing/expand-next-chunk.js';
import { startNextDueBatch } from '../src/processing/start-due-batches.js';
import {
  accountDirectory,
  drain,
  insertBatch,
  optOut,
  outboundEvents,
  readBatch,
  readMessages,
  testAccount,
  testLogger,
  useProcessingDatabase,
  workerContext,
} from './processing-support.js';

let pool: pg.Pool;
let fake: FakeBilling;
let billing: PrepaidBilling;
const directory = accountDirectory();

useProcessingDatabase(async (ready) => {
  pool = ready;
  fake = await startFakeBilling();
  billing = createPrepaidBilling({ adminUrl: fake.url, token: fake.token, logger: testLogger });
});

afterAll(async () => {
  await fake?.close();
});

function prepaidAccount(credits: number): AccountState {
  const account = testAccount({
    smsThroughputPerSecond: 1000,
    billing: { mode: 'prepaid', fundsAvailable: credits > 0 },
  });
  directory.set(account);
  fake.setBalance(account.id, credits);
  return account;
}

/** Starts the batch, then expands every chunk (the pacing between chunks is skipped). */
async function startAndExpand(ctx: ReturnType<typeof workerContext>, batchId: string) {
  await drain(() => startNextDueBatch(ctx));
  await drain(async () => {
    await pool.query('UPDATE batch.batch SET next_chunk_at = NULL WHERE id = $1', [batchId]);
    return expandNextChunk(ctx);
  });
}

const statuses = async (batchId: string) =>
  (await readMessages(pool, batchId)).map((m) => [m.status, m.error]);

describe('expansion for a prepaid account (rule 5.3)', () => {
  it('when the balance covers only some recipients, then they are queued in order, the rest fail as insufficient_funds and the batch goes on', async () => {
    const account = prepaidAccount(5);
    const id = await insertBatch(pool, { accountId: account.id, count: 8 });
    await startAndExpand(workerContext(pool, directory.accountById, {}, billing), id);

    expect(await statuses(id)).toEqual([
      ...Array(5).fill(['queued', null]),
      ...Array(3).fill(['failed', 'insufficient_funds']),
    ]);
    expect(await outboundEvents(pool, account.id)).toHaveLength(5);
    expect(await readBatch(pool, id)).toMatchObject({
      status: 'processing',
      expanded_through: 8,
      failed_messages: 3,
      total_parts: 5,
      last_change_seq: '3',
    });
    expect(fake.balance(account.id)).toBe(0);
  });

  it('when the balance is empty, then every recipient fails with insufficient_funds and the batch ends failed', async () => {
    const account = prepaidAccount(0);
    const id = await insertBatch(pool, { accountId: account.id, count: 3 });
    await startAndExpand(workerContext(pool, directory.accountById, {}, billing), id);

    expect(await statuses(id)).toEqual(Array(3).fill(['failed', 'insufficient_funds']));
    expect(await outboundEvents(pool, account.id)).toEqual([]);
    expect(await readBatch(pool, id)).toMatchObject({ status: 'failed', failed_messages: 3 });
  });

  it('when the account is topped up between chunks, then the later chunks send again', async () => {
    const account = prepaidAccount(2);
    const id = await insertBatch(pool, { accountId: account.id, count: 6 });
    const ctx = workerContext(pool, directory.accountById, { BATCH_CHUNK_SIZE: 2 }, billing);
    await drain(() => startNextDueBatch(ctx));
    await expandNextChunk(ctx); // seq 1-2: paid
    await pool.query('UPDATE batch.batch SET next_chunk_at = NULL WHERE id = $1', [id]);
    await expandNextChunk(ctx); // seq 3-4: empty
    fake.setBalance(account.id, 1);
    await pool.query('UPDATE batch.batch SET next_chunk_at = NULL WHERE id = $1', [id]);
    await expandNextChunk(ctx); // seq 5 paid, 6 not

    expect(await statuses(id)).toEqual([
      ['queued', null],
      ['queued', null],
      ['failed', 'insufficient_funds'],
      ['failed', 'insufficient_funds'],
      ['queued', null],
      ['failed', 'insufficient_funds'],
    ]);
  });

  it('when a recipient was already paid by a chunk that rolled back, then the retry does not charge it again', async () => {
    const account = prepaidAccount(2);
    const id = await insertBatch(pool, { accountId: account.id, count: 2 });
    // An earlier attempt of this chunk paid seq 1, then its transaction rolled back.
    expect(
      await billing.chargeInOrder(account, [{ reference: `batch:${id}:1`, parts: 1 }]),
    ).toEqual([true]);
    await startAndExpand(workerContext(pool, directory.accountById, {}, billing), id);

    expect(await statuses(id)).toEqual([
      ['queued', null],
      ['queued', null],
    ]);
    expect(fake.balance(account.id)).toBe(0);
    expect(fake.debited(account.id)).toEqual([`batch:${id}:1`, `batch:${id}:2`]);
  });

  it('when the billing API cannot answer, then the chunk is undone and waits: nothing is sent unpaid', async () => {
    const account = prepaidAccount(10);
    const id = await insertBatch(pool, { accountId: account.id, count: 2 });
    // No ADMIN_URL: prepaid chunks cannot be paid.
    const ctx = workerContext(pool, directory.accountById);
    await drain(() => startNextDueBatch(ctx));
    expect(await expandNextChunk(ctx)).toBe(id);

    expect(await statuses(id)).toEqual(Array(2).fill(['pending', null]));
    expect(await outboundEvents(pool, account.id)).toEqual([]);
    const batch = await readBatch(pool, id);
    expect(batch.expanded_through).toBe(0);
    expect(batch.next_chunk_at?.getTime()).toBeGreaterThan(Date.now());
  });

  it('when a recipient opted out, then it fails as opted_out and is never charged', async () => {
    const account = prepaidAccount(10);
    await optOut(pool, account.id, '+46700000002');
    const id = await insertBatch(pool, { accountId: account.id, count: 3 });
    await startAndExpand(workerContext(pool, directory.accountById, {}, billing), id);

    expect(await statuses(id)).toEqual([
      ['queued', null],
      ['failed', 'opted_out'],
      ['queued', null],
    ]);
    expect(fake.debited(account.id)).toEqual([`batch:${id}:1`, `batch:${id}:3`]);
    expect(fake.balance(account.id)).toBe(8);
    expect(await outboundEvents(pool, account.id)).toHaveLength(2);
  });

  it('when a chunk has bad, opted-out and unpaid recipients, then the unpaid take their change_seq after the others', async () => {
    const account = prepaidAccount(1);
    await optOut(pool, account.id, '+46700000002');
    const id = await insertBatch(pool, {
      accountId: account.id,
      recipients: ['+46700000001', '+46700000002', '+46700000003', '12345'].map((phone) => ({
        phone_number: phone,
        field_message: { name: 'Ann' },
      })),
    });
    await startAndExpand(workerContext(pool, directory.accountById, {}, billing), id);

    const messages = await readMessages(pool, id);
    expect(messages.map((m) => [m.status, m.error, m.change_seq])).toEqual([
      ['queued', null, null],
      ['failed', 'opted_out', '1'],
      ['failed', 'insufficient_funds', '3'],
      ['failed', 'invalid_phone_number', '2'],
    ]);
    expect(fake.debited(account.id)).toEqual([`batch:${id}:1`]);
  });

  it('when the chunk cannot be written after it was paid, then the charges go back and the retry pays again', async () => {
    const account = prepaidAccount(5);
    const id = await insertBatch(pool, { accountId: account.id, count: 2 });
    const ctx = workerContext(pool, directory.accountById, {}, billing);
    await drain(() => startNextDueBatch(ctx));
    // The database refuses this batch's message updates for the first attempt.
    await pool.query(`
      CREATE FUNCTION batch.refuse_chunk() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'refused'; END $$`);
    await pool.query(`
      CREATE TRIGGER refuse_chunk BEFORE UPDATE ON batch.message
        FOR EACH ROW WHEN (NEW.batch_id = '${id}'::uuid) EXECUTE FUNCTION batch.refuse_chunk()`);
    try {
      expect(await expandNextChunk(ctx)).toBe(id);
    } finally {
      await pool.query('DROP TRIGGER refuse_chunk ON batch.message');
      await pool.query('DROP FUNCTION batch.refuse_chunk()');
    }
    expect(await statuses(id)).toEqual(Array(2).fill(['pending', null]));
    expect(fake.balance(account.id)).toBe(5);
    expect(fake.debited(account.id)).toEqual([]);

    await startAndExpand(ctx, id);
    expect(await statuses(id)).toEqual(Array(2).fill(['queued', null]));
    expect(fake.balance(account.id)).toBe(3);
    expect(fake.debited(account.id)).toEqual([`batch:${id}:1`, `batch:${id}:2`]);
  });

  it('when the batch is a dry run, then nothing is charged', async () => {
    const account = prepaidAccount(1);
    const id = await insertBatch(pool, { accountId: account.id, count: 3, dryRun: true });
    const calls = fake.calls;
    await startAndExpand(workerContext(pool, directory.accountById, {}, billing), id);
    expect(await statuses(id)).toEqual(Array(3).fill(['submitted', null]));
    expect(fake.calls).toBe(calls);
    expect(fake.balance(account.id)).toBe(1);
  });
});

describe('expansion for a postpaid account', () => {
  it('when the batch expands, then every recipient is queued and the billing API is never called', async () => {
    const account = testAccount({ smsThroughputPerSecond: 1000 });
    directory.set(account);
    const id = await insertBatch(pool, { accountId: account.id, count: 4 });
    const calls = fake.calls;
    await startAndExpand(workerContext(pool, directory.accountById, {}, billing), id);
    expect(await statuses(id)).toEqual(Array(4).fill(['queued', null]));
    expect(fake.calls).toBe(calls);
  });
});

import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { expandNextChunk } from '../src/processing/expand-next-chunk.js';
import { startNextDueBatch } from '../src/processing/start-due-batches.js';
import {
  accountDirectory,
  drain,
  insertBatch,
  outboundEvents,
  readBatch,
  readMessages,
  testAccount,
  useProcessingDatabase,
  workerContext,
} from './processing-support.js';

let pool: pg.Pool;
const directory = accountDirectory();
useProcessingDatabase((ready) => {
  pool = ready;
});

/** Starts the batch, then expands chunks until none is due. */
async function startAndExpand(ctx: ReturnType<typeof workerContext>): Promise<number> {
  await drain(() => startNextDueBatch(ctx));
  return drain(() => expandNextChunk(ctx));
}

describe('expansion', () => {
  it('when recipients are bad in different ways, then only they fail and the batch goes on', async () => {
    const account = testAccount({ smsThroughputPerSecond: 1000 });
    directory.set(account);
    const id = await insertBatch(pool, {
      accountId: account.id,
      template: 'Hi {{name}}, your code is {{code}}.{{tail}}',
      recipients: [
        { phone_number: '+46701234567', field_message: { name: 'Ann', code: 42, tail: '' } },
        { phone_number: '0046701234568', field_message: { name: 'Bo', tail: '' } },
        { phone_number: '12345', field_message: { name: 'Cy', code: 1, tail: '' } },
        { phone_number: '0701234569', field_message: { name: 'Di', code: 2, tail: '' } },
        {
          phone_number: '46701234570',
          field_message: { name: 'Ed', code: true, tail: ' ok' },
        },
      ],
    });
    await startAndExpand(workerContext(pool, directory.accountById));

    const messages = await readMessages(pool, id);
    expect(messages.map((m) => [m.status, m.error, m.phone_number, m.text])).toEqual([
      ['queued', null, '+46701234567', 'Hi Ann, your code is 42.'],
      ['failed', 'missing_field:code', '+46701234568', null],
      ['failed', 'invalid_phone_number', '12345', null],
      ['failed', 'invalid_phone_number', '0701234569', null],
      ['queued', null, '+46701234570', 'Hi Ed, your code is true. ok'],
    ]);
    // Failures are decided at once, in seq order; queued ones wait for their status report.
    expect(messages.map((m) => m.change_seq)).toEqual([null, '1', '2', '3', null]);
    expect(messages.every((m) => m.transaction_id !== null)).toBe(true);
    const batch = await readBatch(pool, id);
    expect(batch).toMatchObject({
      status: 'processing',
      expanded_through: 5,
      submitted_messages: 0,
      failed_messages: 3,
      total_parts: 2,
      last_change_seq: '3',
    });
  });

  it('when a text needs more than 10 parts, then that recipient fails as too_long (GSM-7 and UCS-2 limits)', async () => {
    const account = testAccount({ smsThroughputPerSecond: 1000 });
    directory.set(account);
    const id = await insertBatch(pool, {
      accountId: account.id,
      template: '{{text}}',
      recipients: [
        { phone_number: '+46701234501', field_message: { text: 'a'.repeat(1530) } },
        { phone_number: '+46701234502', field_message: { text: 'a'.repeat(1531) } },
        { phone_number: '+46701234503', field_message: { text: 'ж'.repeat(670) } },
        { phone_number: '+46701234504', field_message: { text: 'ж'.repeat(671) } },
        { phone_number: '+46701234505', field_message: { text: 'short' } },
      ],
    });
    await startAndExpand(workerContext(pool, directory.accountById));

    const messages = await readMessages(pool, id);
    expect(messages.map((m) => [m.status, m.error, m.parts])).toEqual([
      ['queued', null, 10],
      ['failed', 'too_long', null],
      ['queued', null, 10],
      ['failed', 'too_long', null],
      ['queued', null, 1],
    ]);
    const batch = await readBatch(pool, id);
    expect(batch).toMatchObject({ status: 'processing', failed_messages: 2, total_parts: 21 });
  });

  it('when messages are queued, then the outbox holds exactly one sms.outbound per good message with its fields', async () => {
    const account = testAccount({ smsThroughputPerSecond: 250 });
    directory.set(account);
    const id = await insertBatch(pool, {
      accountId: account.id,
      template: 'Привет {{name}}',
      senderId: '+46700000001',
      deliveryReport: true,
      validityMinutes: 90,
      recipients: [
        { phone_number: '+46701234511', field_message: { name: 'Ann' } },
        { phone_number: 'bad', field_message: { name: 'Bo' } },
        { phone_number: '+46 70 123 45 13', field_message: { name: 'Cy' } },
      ],
    });
    await startAndExpand(workerContext(pool, directory.accountById));

    const messages = await readMessages(pool, id);
    const events = await outboundEvents(pool, account.id);
    expect(events).toHaveLength(2);
    expect(events.map((e) => e.key)).toEqual([account.id, account.id]);
    expect(events.map((e) => e.value.type)).toEqual(['sms.outbound', 'sms.outbound']);
    expect(events.map((e) => e.value.payload)).toEqual([
      {
        messageId: messages[0]?.transaction_id,
        accountId: account.id,
        source: 'batch',
        from: '+46700000001',
        to: '+46701234511',
        text: 'Привет Ann',
        encoding: 'UCS-2',
        parts: 1,
        deliveryReport: true,
        validityMinutes: 90,
        throughputPerSecond: 250,
      },
      {
        messageId: messages[2]?.transaction_id,
        accountId: account.id,
        source: 'batch',
        from: '+46700000001',
        to: '+46701234513',
        text: 'Привет Cy',
        encoding: 'UCS-2',
        parts: 1,
        deliveryReport: true,
        validityMinutes: 90,
        throughputPerSecond: 250,
      },
    ]);
  });

  it('when every recipient fails, then the batch ends failed at expansion', async () => {
    const account = testAccount();
    directory.set(account);
    const id = await insertBatch(pool, {
      accountId: account.id,
      recipients: [{ phone_number: 'x' }, { phone_number: '+46701234567' }],
    });
    await startAndExpand(workerContext(pool, directory.accountById));

    const batch = await readBatch(pool, id);
    expect(batch).toMatchObject({ status: 'failed', failed_messages: 2, submitted_messages: 0 });
    expect(batch.completed_at).not.toBeNull();
    const messages = await readMessages(pool, id);
    expect(messages.map((m) => m.error)).toEqual(['invalid_phone_number', 'missing_field:name']);
    expect(await outboundEvents(pool, account.id)).toEqual([]);
  });

  it('when the account loses batch SMS during expansion, then its remaining recipients fail', async () => {
    const account = testAccount({ smsThroughputPerSecond: 3 });
    directory.set(account);
    const id = await insertBatch(pool, { accountId: account.id, count: 7 });
    const ctx = workerContext(pool, directory.accountById);
    await drain(() => startNextDueBatch(ctx));
    expect(await expandNextChunk(ctx)).toBe(id);
    directory.set({ ...account, permissions: ['sms'] });
    await pool.query('UPDATE batch.batch SET next_chunk_at = NULL WHERE id = $1', [id]);
    await drain(() => expandNextChunk(ctx));

    const messages = await readMessages(pool, id);
    expect(messages.map((m) => m.status)).toEqual([
      'queued',
      'queued',
      'queued',
      'failed',
      'failed',
      'failed',
      'failed',
    ]);
    expect(messages[3]?.error).toBe('account_not_allowed');
    expect(await readBatch(pool, id)).toMatchObject({ status: 'processing', failed_messages: 4 });
  });
  it('when a chunk fails, then it is undone, its batch waits and the other batches go on', async () => {
    const broken = testAccount();
    const fine = testAccount();
    directory.set(broken);
    directory.set(fine);
    const stuck = await insertBatch(pool, { accountId: broken.id, count: 2 });
    const goes = await insertBatch(pool, { accountId: fine.id, count: 2 });
    // The start looks the account up once; the chunk's lookup throws.
    let lookups = 0;
    const ctx = workerContext(pool, (id) => {
      if (id === broken.id && lookups++ > 0) throw new Error('directory exploded');
      return directory.accountById(id);
    });
    await startAndExpand(ctx);

    const before = await readBatch(pool, stuck);
    expect(before).toMatchObject({ status: 'processing', expanded_through: 0 });
    expect(before.next_chunk_at?.getTime()).toBeGreaterThan(Date.now());
    expect((await readMessages(pool, stuck)).map((m) => m.status)).toEqual(['pending', 'pending']);
    expect((await readBatch(pool, goes)).expanded_through).toBe(2);
    await pool.query(`UPDATE batch.batch SET status = 'canceled' WHERE id = $1`, [stuck]);
  });
});

describe('pacing', () => {
  it('when the throughput is below the chunk size, then a chunk is one second of throughput and the next is due a second later', async () => {
    const account = testAccount({ smsThroughputPerSecond: 7 });
    directory.set(account);
    const id = await insertBatch(pool, { accountId: account.id, count: 20 });
    const ctx = workerContext(pool, directory.accountById, { BATCH_CHUNK_SIZE: 1000 });
    await drain(() => startNextDueBatch(ctx));

    const sizes: number[] = [];
    const gaps: number[] = [];
    let expanded = 0;
    while (expanded < 20) {
      expect(await expandNextChunk(ctx)).toBe(id);
      const batch = await readBatch(pool, id);
      sizes.push(batch.expanded_through - expanded);
      expanded = batch.expanded_through;
      const events = await outboundEvents(pool, account.id);
      const last = events.at(-1);
      if (!last || !batch.next_chunk_at) throw new Error('chunk not paced');
      // created_at of the outbox row is the chunk transaction's now().
      gaps.push(batch.next_chunk_at.getTime() - last.created_at.getTime());
      // Not due yet: nothing more is expanded until its time comes.
      expect(await expandNextChunk(ctx)).toBeUndefined();
      await pool.query(
        `UPDATE batch.batch SET next_chunk_at = now() - interval '1 second' WHERE id = $1`,
        [id],
      );
    }
    expect(sizes).toEqual([7, 7, 6]);
    expect(gaps[0]).toBe(1000);
    expect(gaps[1]).toBe(1000);
    expect(gaps[2]).toBeGreaterThanOrEqual(856);
    expect(gaps[2]).toBeLessThanOrEqual(858);
    expect(await outboundEvents(pool, account.id)).toHaveLength(20);
  });

  it('when the chunk size is below the throughput, then chunks have the chunk size and are due chunk/throughput later', async () => {
    const account = testAccount({ smsThroughputPerSecond: 100 });
    directory.set(account);
    const id = await insertBatch(pool, { accountId: account.id, count: 10 });
    const ctx = workerContext(pool, directory.accountById, { BATCH_CHUNK_SIZE: 4 });
    await drain(() => startNextDueBatch(ctx));

    expect(await expandNextChunk(ctx)).toBe(id);
    const batch = await readBatch(pool, id);
    expect(batch.expanded_through).toBe(4);
    const [first] = await outboundEvents(pool, account.id);
    expect(batch.next_chunk_at?.getTime()).toBe((first?.created_at.getTime() ?? 0) + 40);
    // Out of the way of the other tests' workers.
    await pool.query(`UPDATE batch.batch SET status = 'canceled' WHERE id = $1`, [id]);
  });
});

describe('dry run', () => {
  it('when the batch is a dry run, then nothing is sent, every message is decided at once and the batch completes', async () => {
    const account = testAccount({ smsThroughputPerSecond: 2 });
    directory.set(account);
    const recipients = Array.from({ length: 25 }, (_, i) => ({
      phone_number: i === 7 ? 'not-a-number' : `+467012300${String(i).padStart(2, '0')}`,
      field_message: { name: `N${i}` },
    }));
    const id = await insertBatch(pool, { accountId: account.id, recipients, dryRun: true });
    const ctx = workerContext(pool, directory.accountById, { BATCH_CHUNK_SIZE: 10 });
    // Not paced by the account's throughput of 2: every chunk is due at once.
    await startAndExpand(ctx);

    expect(await outboundEvents(pool, account.id)).toEqual([]);
    const messages = await readMessages(pool, id);
    expect(messages.filter((m) => m.status === 'submitted')).toHaveLength(24);
    expect(messages[7]).toMatchObject({ status: 'failed', error: 'invalid_phone_number' });
    expect(messages.map((m) => Number(m.change_seq))).toEqual(
      Array.from({ length: 25 }, (_, i) => i + 1),
    );
    expect(messages.every((m) => m.submitted_at !== null && m.transaction_id !== null)).toBe(true);
    const batch = await readBatch(pool, id);
    expect(batch).toMatchObject({
      status: 'completed',
      submitted_messages: 24,
      failed_messages: 1,
      total_parts: 24,
      expanded_through: 25,
      next_chunk_at: null,
      last_change_seq: '25',
    });
    expect(batch.completed_at).not.toBeNull();
  });
});

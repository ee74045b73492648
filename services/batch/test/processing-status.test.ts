import { randomUUID } from 'node:crypto';
import { type Bus, createInProcessBus, type Subscription } from '@msg/bus';
import {
  type EventEnvelope,
  makeEvent,
  SMS_STATUS_EVENT,
  type SmsStatus,
  Topics,
} from '@msg/contracts';
import { withTransaction } from '@msg/db';
import { metricTotal } from '@msg/testing';
import type pg from 'pg';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { applyStatusReports } from '../src/processing/apply-status.js';
import { startStatusConsumer } from '../src/processing/index.js';
import {
  accountDirectory,
  insertBatch,
  type MessageRow,
  readBatch,
  readMessages,
  startAndExpandAll,
  startProcessingDatabase,
  TEST_CONFIG,
  testAccount,
  testLogger,
  workerContext,
} from './processing-support.js';

const RETENTION = TEST_CONFIG.BATCH_RETENTION;
let pool: pg.Pool;
let bus: Bus;
let consumer: Subscription;
let stop: () => Promise<void>;
const directory = accountDirectory();
const metrics = new Registry();

beforeAll(async () => {
  const database = await startProcessingDatabase();
  pool = database.pool;
  bus = createInProcessBus({ logger: testLogger });
  consumer = await startStatusConsumer({
    bus,
    pool,
    logger: testLogger,
    metrics,
    retention: RETENTION,
  });
  stop = async () => {
    await consumer.stop();
    await bus.close();
    await database.stop();
  };
}, 60_000);

afterAll(async () => {
  await stop?.();
});

/** A processing batch of `count` queued messages. */
async function queuedBatch(count: number, extra: { scheduledAt?: Date } = {}) {
  const account = testAccount({ smsThroughputPerSecond: 1000 });
  directory.set(account);
  const id = await insertBatch(pool, {
    accountId: account.id,
    count,
    ...(extra.scheduledAt && { status: 'processing', scheduledAt: extra.scheduledAt }),
  });
  await startAndExpandAll(workerContext(pool, directory.accountById));
  const messages = await readMessages(pool, id);
  expect(messages.every((m) => m.status === 'queued')).toBe(true);
  return { id, account, messages };
}

/** Publishes a status report as the smsc-connector does (key = message id). */
async function publishStatus(
  message: MessageRow,
  accountId: string,
  report: Partial<SmsStatus> & Pick<SmsStatus, 'state'>,
  envelope?: EventEnvelope<SmsStatus>,
): Promise<EventEnvelope<SmsStatus>> {
  const payload: SmsStatus = {
    messageId: message.transaction_id ?? '',
    accountId,
    source: 'batch',
    smscMessageIds: ['smsc-1'],
    parts: 1,
    at: new Date().toISOString(),
    ...report,
  };
  const event = envelope ?? makeEvent(SMS_STATUS_EVENT, payload, { accountId });
  await bus.publish(Topics.smsStatus, [{ key: payload.messageId, value: event }]);
  return event;
}

/** Reports the status consumer has handled (committed) so far, of one outcome or all. */
const handled = (outcome?: string) =>
  metricTotal(metrics, 'batch_status_reports_total', outcome ? { outcome } : {});

const wait = { timeout: 5_000, interval: 20 };

/** A report as the connector writes it, without publishing it. */
function reportOf(
  message: MessageRow,
  accountId: string,
  report: Partial<SmsStatus> = {},
): SmsStatus {
  return {
    messageId: message.transaction_id ?? '',
    accountId,
    source: 'batch',
    smscMessageIds: ['smsc-1'],
    parts: 1,
    at: '2026-11-22T10:00:00.000Z',
    state: 'submitted',
    ...report,
  };
}

describe('status consumer', () => {
  it('when reports say submitted and failed, then the messages are decided and the counters move', async () => {
    const { id, account, messages } = await queuedBatch(3);
    const [m1, m2] = messages as [MessageRow, MessageRow];
    await publishStatus(m1, account.id, { state: 'submitted', at: '2026-11-22T10:00:00.000Z' });
    await vi.waitFor(
      async () => expect((await readBatch(pool, id)).last_change_seq).toBe('1'),
      wait,
    );
    await publishStatus(m2, account.id, {
      state: 'failed',
      at: '2026-11-22T10:00:01.000Z',
      error: { smppStatus: 11, description: 'invalid destination address' },
    });
    await vi.waitFor(
      async () => expect((await readBatch(pool, id)).last_change_seq).toBe('2'),
      wait,
    );

    const after = await readMessages(pool, id);
    expect(after.map((m) => [m.status, m.error, m.change_seq])).toEqual([
      ['submitted', null, '1'],
      ['failed', 'invalid destination address', '2'],
      ['queued', null, null],
    ]);
    expect(after[0]?.submitted_at?.toISOString()).toBe('2026-11-22T10:00:00.000Z');
    expect(after[1]?.submitted_at?.toISOString()).toBe('2026-11-22T10:00:01.000Z');
    expect(await readBatch(pool, id)).toMatchObject({
      status: 'processing',
      submitted_messages: 1,
      failed_messages: 1,
    });
  });

  it('when the same report arrives twice and later reports follow, then it is applied once and the rest ignored', async () => {
    const { id, account, messages } = await queuedBatch(2);
    const [m1] = messages as [MessageRow];
    const before = await handled('already-decided');
    const first = await publishStatus(m1, account.id, { state: 'submitted' });
    await publishStatus(m1, account.id, { state: 'submitted' }, first);
    await publishStatus(m1, account.id, { state: 'failed', error: { description: 'late' } });
    await publishStatus(m1, account.id, { state: 'delivered' });
    // The redelivery and both later reports find the message decided.
    await vi.waitFor(async () => expect(await handled('already-decided')).toBe(before + 3), wait);

    expect(await readBatch(pool, id)).toMatchObject({
      submitted_messages: 1,
      failed_messages: 0,
      last_change_seq: '1',
    });
    const [after] = await readMessages(pool, id);
    expect(after).toMatchObject({ status: 'submitted', error: null, change_seq: '1' });
  });

  it('when a delivered or expired report comes while the message is still queued, then it counts as submitted', async () => {
    const { id, account, messages } = await queuedBatch(3);
    const [m1, m2] = messages as [MessageRow, MessageRow];
    await publishStatus(m1, account.id, { state: 'delivered' });
    await publishStatus(m2, account.id, { state: 'expired', error: { description: 'expired' } });
    await vi.waitFor(
      async () => expect((await readBatch(pool, id)).submitted_messages).toBe(2),
      wait,
    );
    const after = await readMessages(pool, id);
    expect(after.map((m) => m.status)).toEqual(['submitted', 'submitted', 'queued']);
  });

  it('when a report belongs to another owner, then it is skipped', async () => {
    const { id, account, messages } = await queuedBatch(1);
    const [m1] = messages as [MessageRow];
    const before = await handled();
    await publishStatus(m1, account.id, {
      state: 'failed',
      source: 'sms',
      error: { description: 'not ours' },
    });
    await publishStatus(m1, account.id, { state: 'submitted' });
    // Same key, so same partition and order: once ours is handled, the foreign one was seen.
    await vi.waitFor(async () => expect(await handled()).toBe(before + 1), wait);
    expect((await readMessages(pool, id))[0]?.status).toBe('submitted');
  });

  it('when the last message is decided, then the batch completes and is kept for the retention', async () => {
    const { id, account, messages } = await queuedBatch(3);
    for (const [i, message] of messages.entries()) {
      await publishStatus(
        message,
        account.id,
        i === 1 ? { state: 'failed', error: { description: 'x' } } : { state: 'submitted' },
      );
    }
    await vi.waitFor(
      async () => expect((await readBatch(pool, id)).status).toBe('completed'),
      wait,
    );
    const batch = await readBatch(pool, id);
    expect(batch).toMatchObject({ submitted_messages: 2, failed_messages: 1 });
    expect(batch.purge_after?.getTime()).toBe((batch.completed_at?.getTime() ?? 0) + RETENTION);
  });

  it('when every message fails, then the batch ends failed', async () => {
    const { id, account, messages } = await queuedBatch(2);
    for (const message of messages) {
      await publishStatus(message, account.id, {
        state: 'failed',
        error: { description: 'rejected' },
      });
    }
    await vi.waitFor(async () => expect((await readBatch(pool, id)).status).toBe('failed'), wait);
    expect(await readBatch(pool, id)).toMatchObject({ submitted_messages: 0, failed_messages: 2 });
  });

  it('when the batch was scheduled later than it ended, then retention counts from the scheduled time', async () => {
    // Processing already, with a scheduled time ahead (as when the clock of the scheduler was ahead).
    const scheduledAt = new Date(Date.now() + 2 * 24 * 3_600_000);
    const { id, account, messages } = await queuedBatch(1, { scheduledAt });
    const [m1] = messages as [MessageRow];
    await publishStatus(m1, account.id, { state: 'submitted' });
    await vi.waitFor(
      async () => expect((await readBatch(pool, id)).status).toBe('completed'),
      wait,
    );
    const batch = await readBatch(pool, id);
    expect(batch.purge_after?.getTime()).toBe(scheduledAt.getTime() + RETENTION);
  });

  it('when many reports share one transaction, then each message is decided once, change_seq follows their order without gaps and the counters move by the group', async () => {
    const { id, account, messages } = await queuedBatch(5);
    const [m1, m2, m3, m4] = messages as [MessageRow, MessageRow, MessageRow, MessageRow];
    const first = reportOf(m2, account.id);
    const group = [
      first,
      reportOf(m1, account.id, { state: 'failed', error: { description: 'no route' } }),
      first, // the same event twice in one group
      reportOf(m2, account.id, { state: 'failed' }), // a later report of a decided message
      reportOf(m4, account.id, { state: 'delivered' }),
      reportOf(m3, 'another-account'),
    ];
    const outcomes = await withTransaction(pool, (sql) =>
      applyStatusReports(sql, group, RETENTION),
    );
    expect(outcomes).toEqual([
      'applied',
      'applied',
      'already-decided',
      'already-decided',
      'applied',
      'unknown-message',
    ]);
    const after = await readMessages(pool, id);
    expect(after.map((m) => [m.status, m.change_seq, m.error])).toEqual([
      ['failed', '2', 'no route'],
      ['submitted', '1', null],
      ['queued', null, null],
      ['submitted', '3', null],
      ['queued', null, null],
    ]);
    expect(await readBatch(pool, id)).toMatchObject({
      status: 'processing',
      submitted_messages: 2,
      failed_messages: 1,
      last_change_seq: '3',
    });
    // Applied again (a redelivered group): every message is decided already, nothing moves.
    const again = await withTransaction(pool, (sql) => applyStatusReports(sql, group, RETENTION));
    expect(again).toEqual([...Array(5).fill('already-decided'), 'unknown-message']);
    expect((await readBatch(pool, id)).last_change_seq).toBe('3');
  });

  it('when one group carries the last reports of two batches, then both complete', async () => {
    const a = await queuedBatch(2);
    const b = await queuedBatch(1);
    const group = [
      ...a.messages.map((m) => reportOf(m, a.account.id)),
      ...b.messages.map((m) => reportOf(m, b.account.id, { state: 'failed' })),
    ];
    await withTransaction(pool, (sql) => applyStatusReports(sql, group, RETENTION));
    expect(await readBatch(pool, a.id)).toMatchObject({
      status: 'completed',
      submitted_messages: 2,
      last_change_seq: '2',
    });
    expect(await readBatch(pool, b.id)).toMatchObject({ status: 'failed', failed_messages: 1 });
  });

  it('when a report names an unknown message, then it is counted and ignored', async () => {
    const unknown = await handled('unknown-message');
    await publishStatus({ transaction_id: randomUUID() } as MessageRow, randomUUID(), {
      state: 'submitted',
    });
    await vi.waitFor(async () => expect(await handled('unknown-message')).toBe(unknown + 1), wait);
  });
});

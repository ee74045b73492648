import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { BatchEvent } from '../src/batches/batch-events.js';
import { applyStatusReport } from '../src/processing/apply-status.js';
import { reportNextProgress } from '../src/processing/report-progress.js';
import {
  accountDirectory,
  batchEvents,
  drain,
  insertBatch,
  readBatch,
  readMessages,
  startAndExpandAll,
  TEST_CONFIG,
  testAccount,
  useProcessingDatabase,
  workerContext,
} from './processing-support.js';

let pool: pg.Pool;
const directory = accountDirectory();
const CALLBACK = 'https://hooks.example.com/batches';

useProcessingDatabase((ready) => {
  pool = ready;
});

/** Decides message `seq` of the batch as the status consumer would. */
async function decide(batchId: string, seq: number, state: 'submitted' | 'failed') {
  const messages = await readMessages(pool, batchId);
  const message = messages[seq - 1];
  const batch = await readBatch(pool, batchId);
  await applyStatusReport(
    pool,
    {
      messageId: message?.transaction_id ?? '',
      accountId: batch.account_id,
      source: 'batch',
      state,
      smscMessageIds: [],
      parts: 1,
      at: new Date().toISOString(),
      ...(state === 'failed' && { error: { description: 'rejected' } }),
    },
    TEST_CONFIG.BATCH_RETENTION,
  );
}

const types = (events: BatchEvent[]) => events.map((e) => e.event_type);
const deltaSeqs = (events: BatchEvent[]) =>
  events.flatMap((e) => e.submitted_messages_delta ?? []).map((d) => d.id);

describe('progress events', () => {
  it('when messages are decided over time, then progress is reported in intervals and the completion only after every change', async () => {
    const account = testAccount({ smsThroughputPerSecond: 1000 });
    directory.set(account);
    const id = await insertBatch(pool, { accountId: account.id, count: 10, callbackUrl: CALLBACK });
    const ctx = workerContext(pool, directory.accountById);
    await startAndExpandAll(ctx);
    // Nothing decided yet: nothing to report.
    expect(await reportNextProgress(ctx)).toBeUndefined();

    for (const seq of [1, 2, 3]) await decide(id, seq, 'submitted');
    await decide(id, 4, 'failed');
    expect(await reportNextProgress(ctx)).toBe(id);
    await decide(id, 5, 'submitted');
    // The interval (an hour here) has not passed and the batch is still processing.
    expect(await reportNextProgress(ctx)).toBeUndefined();

    for (const seq of [6, 7, 8, 9, 10]) await decide(id, seq, 'submitted');
    expect((await readBatch(pool, id)).status).toBe('completed');
    // Ended: reported at once, the completion after the last progress update.
    expect(await reportNextProgress(ctx)).toBe(id);
    expect(await reportNextProgress(ctx)).toBeUndefined();

    const events = await batchEvents(pool, id);
    expect(types(events)).toEqual([
      'batch.processing_started',
      'batch.submission_progress_update',
      'batch.submission_progress_update',
      'batch.submission_completed',
    ]);
    const [, first, second, completed] = events as [BatchEvent, BatchEvent, BatchEvent, BatchEvent];
    expect(first.submission_progress_percentage).toBe(40);
    expect(first.submitted_messages_delta?.map((d) => d.submission_status)).toEqual([
      'SUBMITTED',
      'SUBMITTED',
      'SUBMITTED',
      'FAILED',
    ]);
    expect(first.batch_status_summary).toMatchObject({
      status: 'processing',
      submitted_messages: 3,
      failed_messages: 1,
      pending_messages: 6,
    });
    expect(second.submission_progress_percentage).toBe(100);
    expect(second.submitted_messages_delta).toHaveLength(6);
    expect(completed.batch_status_summary).toMatchObject({
      status: 'completed',
      submitted_messages: 9,
      failed_messages: 1,
      pending_messages: 0,
    });
    const messages = await readMessages(pool, id);
    expect(deltaSeqs(events).sort()).toEqual(messages.map((m) => m.id).sort());
    expect(await readBatch(pool, id)).toMatchObject({
      notified_change_seq: '10',
      final_event_queued: true,
    });
  });

  it('when thousands of messages are decided at once, then the updates page through every message exactly once, at most 2000 each', async () => {
    const account = testAccount();
    directory.set(account);
    const id = await insertBatch(pool, {
      accountId: account.id,
      count: 4500,
      dryRun: true,
      callbackUrl: CALLBACK,
    });
    const ctx = workerContext(pool, directory.accountById, { BATCH_CHUNK_SIZE: 1000 });
    await startAndExpandAll(ctx);
    expect(await drain(() => reportNextProgress(ctx))).toBe(1);

    const events = await batchEvents(pool, id);
    expect(types(events)).toEqual([
      'batch.processing_started',
      'batch.submission_progress_update',
      'batch.submission_progress_update',
      'batch.submission_progress_update',
      'batch.submission_completed',
    ]);
    expect(events.map((e) => e.submitted_messages_delta?.length ?? 0)).toEqual([
      0, 2000, 2000, 500, 0,
    ]);
    const ids = deltaSeqs(events);
    expect(new Set(ids).size).toBe(4500);
    const messages = await readMessages(pool, id);
    expect(ids).toEqual(
      [...messages].sort((a, b) => Number(a.change_seq) - Number(b.change_seq)).map((m) => m.id),
    );
    const delta = events[1]?.submitted_messages_delta?.[0];
    expect(delta).toMatchObject({
      external_message_id: 'ext-1',
      phone_number: '+46700000001',
      message: 'Hello N1',
      submission_status: 'SUBMITTED',
    });
  });

  it('when a dry run fails every recipient, then the updates are followed by batch.failed', async () => {
    const account = testAccount();
    directory.set(account);
    const id = await insertBatch(pool, {
      accountId: account.id,
      recipients: [{ phone_number: 'nope' }, { phone_number: '+46701234567' }],
      dryRun: true,
      callbackUrl: CALLBACK,
    });
    const ctx = workerContext(pool, directory.accountById);
    await startAndExpandAll(ctx);
    await drain(() => reportNextProgress(ctx));

    const events = await batchEvents(pool, id);
    expect(types(events)).toEqual([
      'batch.processing_started',
      'batch.submission_progress_update',
      'batch.failed',
    ]);
    expect(events[1]?.submission_progress_percentage).toBe(100);
    expect(events[2]?.batch_status_summary.status).toBe('failed');
  });

  it('when the batch has no callback URL, then the cursor still moves and nothing is queued', async () => {
    const account = testAccount();
    directory.set(account);
    const id = await insertBatch(pool, { accountId: account.id, count: 3, dryRun: true });
    const ctx = workerContext(pool, directory.accountById);
    await startAndExpandAll(ctx);
    await drain(() => reportNextProgress(ctx));
    expect(await batchEvents(pool, id)).toEqual([]);
    expect(await readBatch(pool, id)).toMatchObject({
      notified_change_seq: '3',
      final_event_queued: true,
    });
  });
});

import type pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { startBatchWorkers } from '../src/processing/index.js';
import { purgeNextExpired } from '../src/processing/purge-expired.js';
import { startNextDueBatch } from '../src/processing/start-due-batches.js';
import {
  accountDirectory,
  batchEvents,
  drain,
  insertBatch,
  outboundEvents,
  readBatch,
  readMessages,
  TEST_CONFIG,
  testAccount,
  testLogger,
  useProcessingDatabase,
  workerContext,
} from './processing-support.js';

let pool: pg.Pool;
const directory = accountDirectory();
const CALLBACK = 'https://hooks.example.com/batches';
const wait = { timeout: 15_000, interval: 20 };

useProcessingDatabase((ready) => {
  pool = ready;
});

describe('start', () => {
  it('when a batch is scheduled, then it starts only once its time has come, with batch.processing_started', async () => {
    const account = testAccount();
    directory.set(account);
    const later = await insertBatch(pool, {
      accountId: account.id,
      count: 1,
      status: 'scheduled',
      scheduledAt: new Date(Date.now() + 3_600_000),
      callbackUrl: CALLBACK,
    });
    const due = await insertBatch(pool, {
      accountId: account.id,
      count: 1,
      status: 'scheduled',
      scheduledAt: new Date(Date.now() - 1_000),
      callbackUrl: CALLBACK,
    });
    const ctx = workerContext(pool, directory.accountById);
    expect(await drain(() => startNextDueBatch(ctx))).toBe(1);
    expect((await readBatch(pool, later)).status).toBe('scheduled');
    const started = await readBatch(pool, due);
    expect(started.status).toBe('processing');
    expect(started.started_at).not.toBeNull();
    expect((await batchEvents(pool, due)).map((e) => e.event_type)).toEqual([
      'batch.processing_started',
    ]);
    expect(await batchEvents(pool, later)).toEqual([]);

    await pool.query(
      `UPDATE batch.batch SET scheduled_at = now() - interval '1 second' WHERE id = $1`,
      [later],
    );
    expect(await drain(() => startNextDueBatch(ctx))).toBe(1);
    expect((await readBatch(pool, later)).status).toBe('processing');
  });

  it.each([
    ['unknown', undefined],
    ['disabled', { status: 'disabled' as const }],
    ['without batch SMS', { permissions: ['sms' as const] }],
  ])(
    'when the account is %s at the start, then the batch fails with batch.failed',
    async (_case, change) => {
      const account = testAccount();
      if (change) directory.set({ ...account, ...change });
      const id = await insertBatch(pool, {
        accountId: account.id,
        count: 2,
        callbackUrl: CALLBACK,
      });
      const ctx = workerContext(pool, directory.accountById);
      expect(await startNextDueBatch(ctx)).toBe('failed');

      const batch = await readBatch(pool, id);
      expect(batch).toMatchObject({ status: 'failed', final_event_queued: true, started_at: null });
      expect(batch.purge_after?.getTime()).toBe(
        (batch.completed_at?.getTime() ?? 0) + TEST_CONFIG.BATCH_RETENTION,
      );
      const events = await batchEvents(pool, id);
      expect(events.map((e) => e.event_type)).toEqual(['batch.failed']);
      expect(events[0]?.batch_status_summary.status).toBe('failed');
    },
  );
});

describe('workers', () => {
  it('when the workers run, then a dry run goes from created to completed with every event', async () => {
    const account = testAccount();
    directory.set(account);
    const id = await insertBatch(pool, {
      accountId: account.id,
      count: 30,
      dryRun: true,
      callbackUrl: CALLBACK,
    });
    const workers = startBatchWorkers({
      pool,
      logger: testLogger,
      accountById: directory.accountById,
      config: { ...TEST_CONFIG, BATCH_CHUNK_SIZE: 7, BATCH_PROGRESS_INTERVAL: 0 },
    });
    try {
      await vi.waitFor(
        async () => expect((await readBatch(pool, id)).final_event_queued).toBe(true),
        wait,
      );
    } finally {
      await workers.stop();
    }
    const events = await batchEvents(pool, id);
    expect(events[0]?.event_type).toBe('batch.processing_started');
    expect(events.at(-1)?.event_type).toBe('batch.submission_completed');
    const reported = events.flatMap((e) => e.submitted_messages_delta ?? []).map((d) => d.id);
    expect(reported.sort()).toEqual((await readMessages(pool, id)).map((m) => m.id).sort());
  });

  it('when the workers are not ready yet, then ticks do nothing until they are', async () => {
    const account = testAccount();
    const id = await insertBatch(pool, { accountId: account.id, count: 1 });
    let ready = false;
    let asked = 0;
    const workers = startBatchWorkers({
      pool,
      logger: testLogger,
      // Unknown until ready: acting earlier would fail the batch.
      accountById: (accountId) => (ready && accountId === account.id ? account : undefined),
      config: TEST_CONFIG,
      ready: () => {
        asked += 1;
        return ready;
      },
    });
    try {
      await vi.waitFor(() => expect(asked).toBeGreaterThanOrEqual(3), wait);
      expect((await readBatch(pool, id)).status).toBe('created');
      ready = true;
      await vi.waitFor(
        async () =>
          expect(await readBatch(pool, id)).toMatchObject({
            status: 'processing',
            expanded_through: 1,
          }),
        wait,
      );
    } finally {
      await workers.stop();
    }
    await pool.query(`UPDATE batch.batch SET status = 'canceled' WHERE id = $1`, [id]);
  });

  it('when the workers are replaced in the middle of expansion, then every message is queued exactly once', async () => {
    const account = testAccount({ smsThroughputPerSecond: 20 });
    directory.set(account);
    const id = await insertBatch(pool, { accountId: account.id, count: 40 });
    const config = { ...TEST_CONFIG, BATCH_CHUNK_SIZE: 5 };
    const deps = { pool, logger: testLogger, accountById: directory.accountById, config };

    const first = startBatchWorkers(deps);
    await vi.waitFor(
      async () => expect((await readBatch(pool, id)).expanded_through).toBeGreaterThan(0),
      wait,
    );
    await first.stop();
    const midway = await readBatch(pool, id);
    expect(midway.expanded_through).toBeLessThan(40);

    const second = startBatchWorkers(deps);
    try {
      await vi.waitFor(
        async () => expect((await readBatch(pool, id)).expanded_through).toBe(40),
        wait,
      );
    } finally {
      await second.stop();
    }
    const messages = await readMessages(pool, id);
    expect(messages.every((m) => m.status === 'queued')).toBe(true);
    const events = await outboundEvents(pool, account.id);
    expect(events.map((e) => e.value.payload.messageId).sort()).toEqual(
      messages.map((m) => m.transaction_id).sort(),
    );
    expect(new Set(events.map((e) => e.value.payload.to)).size).toBe(40);
  });
});

describe('retention', () => {
  it('when batches are past their retention, then they go with their messages in chunks; the others stay', async () => {
    const account = testAccount();
    const past = new Date(Date.now() - 60_000);
    const expired = await insertBatch(pool, {
      accountId: account.id,
      count: 25,
      status: 'completed',
      purgeAfter: past,
    });
    const kept = await insertBatch(pool, {
      accountId: account.id,
      count: 3,
      status: 'completed',
      purgeAfter: new Date(Date.now() + 3_600_000),
    });
    const running = await insertBatch(pool, {
      accountId: account.id,
      count: 3,
      status: 'processing',
    });

    const steps = await drain(() => purgeNextExpired({ pool }, 10));
    expect(steps).toBe(3);
    const { rows } = await pool.query<{ id: string }>(
      'SELECT id FROM batch.batch WHERE account_id = $1 ORDER BY id',
      [account.id],
    );
    expect(rows.map((r) => r.id)).toEqual([kept, running].sort());
    expect(await readMessages(pool, expired)).toEqual([]);
    expect(await readMessages(pool, kept)).toHaveLength(3);
    expect(await readMessages(pool, running)).toHaveLength(3);
    await pool.query(`UPDATE batch.batch SET status = 'canceled' WHERE id = $1`, [running]);
  });
});

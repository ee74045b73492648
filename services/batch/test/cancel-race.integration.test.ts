import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { batchBody, startTestBatch, TEST_DATABASE_URL, type TestBatchService } from './support.js';

/**
 * Cancel racing the start of a scheduled batch, on real Postgres: two transactions contending for
 * the batch row. Exactly one side wins each race:
 * either the cancel answers 200 and the batch never expands a message, or it answers 409 and the
 * batch runs to the end without a batch.canceled event.
 */
let batch: TestBatchService;

beforeAll(async () => {
  batch = await startTestBatch({
    databaseUrl: TEST_DATABASE_URL,
    env: { BATCH_WORKER_INTERVAL: '5ms', BATCH_PROGRESS_INTERVAL: '10ms' },
  });
}, 60_000);
afterAll(async () => {
  await batch?.stop();
});

describe('cancel racing the scheduler', () => {
  it('when cancel and the start of a due batch race, then exactly one of them wins, every time', async () => {
    const outcomes = { canceled: 0, started: 0 };
    for (let round = 0; round < 12; round++) {
      const { token } = await batch.accountWithToken();
      const later = new Date(Date.now() + 3_600_000).toISOString();
      const res = await batch.createBatch(
        token,
        batchBody(5, { schedule_at: later, dry_run: true }),
      );
      expect(res.status).toBe(202);
      const id = res.body.id as string;
      // Due now: the workers (polling every 5 ms) and the cancel reach for the row together.
      const due = batch.pool.query(`UPDATE batch.batch SET scheduled_at = now() WHERE id = $1`, [
        id,
      ]);
      await new Promise((r) => setTimeout(r, round % 4));
      const [answer] = await Promise.all([
        request(batch.app).post(`/v1/batches/${id}/cancel`).set('Authorization', `Bearer ${token}`),
        due,
      ]);
      expect([200, 409]).toContain(answer.status);

      const { rows: decided } = await batch.pool.query(
        'SELECT count(*)::int AS n FROM batch.message WHERE batch_id = $1 AND transaction_id IS NOT NULL',
        [id],
      );
      const events = (await batch.outboxFor(id)).map(
        (row) => (row.value.payload as { body: { event_type: string } }).body.event_type,
      );
      if (answer.status === 200) {
        outcomes.canceled += 1;
        const { rows } = await batch.pool.query(
          'SELECT status, started_at FROM batch.batch WHERE id = $1',
          [id],
        );
        expect(rows[0]).toMatchObject({ status: 'canceled', started_at: null });
        expect(decided[0].n).toBe(0);
        expect(events).not.toContain('batch.processing_started');
      } else {
        outcomes.started += 1;
        await vi.waitFor(
          async () => {
            const { rows } = await batch.pool.query(
              'SELECT status FROM batch.batch WHERE id = $1',
              [id],
            );
            expect(rows[0].status).toBe('completed');
          },
          { timeout: 10_000, interval: 20 },
        );
        expect(events).not.toContain('batch.canceled');
      }
    }
    // Which side wins varies; the invariant above must hold for each.
    process.stderr.write(`[cancel-race] ${JSON.stringify(outcomes)}\n`);
    expect(outcomes.canceled + outcomes.started).toBe(12);
  }, 120_000);
});

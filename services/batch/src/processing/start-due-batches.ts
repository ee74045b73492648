import { type Sql, withTransaction } from '@msg/db';
import { queueBatchEvent } from '../batches/batch-events.js';
import { BATCH_COLUMNS, BATCH_TABLE, type BatchRow } from '../batches/batch-row.js';
import { completeIfDecided } from './complete-batch.js';
import { mayRunBatches, type WorkerContext } from './worker-context.js';

/** Most batches one tick starts; the rest wait for the next tick. */
const MAX_STARTS_PER_TICK = 100;

export type StartOutcome = 'started' | 'failed' | 'none';

/**
 * Claims one due batch ('created', or 'scheduled' whose time has come) and starts it, or fails it
 * when its account may not run batches now. SKIP LOCKED: replicas claim different batches, and a
 * batch is started once however many try, because the claim and the status change are one
 * transaction.
 */
export async function startNextDueBatch(ctx: WorkerContext): Promise<StartOutcome> {
  return withTransaction(ctx.pool, async (sql) => {
    const { rows } = await sql.query<BatchRow & Record<string, unknown>>(
      `SELECT ${BATCH_COLUMNS} FROM ${BATCH_TABLE}
        WHERE status = 'created' OR (status = 'scheduled' AND scheduled_at <= now())
        ORDER BY coalesce(scheduled_at, created_at)
        LIMIT 1
        FOR UPDATE SKIP LOCKED`,
    );
    const due = rows[0];
    if (!due) return 'none';

    if (!mayRunBatches(ctx.accountById(due.account_id))) {
      // Nothing was sent, so the failure is final at once; the messages stay pending.
      const failed = await updateBatch(
        sql,
        `status = 'failed', completed_at = now(), final_event_queued = true,
         purge_after = greatest(now(), scheduled_at) + $2::float8 * interval '1 millisecond'`,
        [due.id, ctx.config.BATCH_RETENTION],
      );
      await queueBatchEvent(sql, failed, 'batch.failed');
      ctx.logger.warn('batch failed: account may not run batches', {
        batchId: due.id,
        accountId: due.account_id,
      });
      return 'failed';
    }

    const started = await updateBatch(
      sql,
      `status = 'processing', started_at = now(), next_chunk_at = NULL`,
      [due.id],
    );
    await queueBatchEvent(sql, started, 'batch.processing_started');
    // A batch without messages (the intake refuses them) would otherwise never end.
    await completeIfDecided(sql, started, ctx.config.BATCH_RETENTION);
    ctx.logger.info('batch started', { batchId: due.id, total: due.total_messages });
    return 'started';
  });
}

async function updateBatch(sql: Sql, set: string, values: unknown[]): Promise<BatchRow> {
  const { rows } = await sql.query<BatchRow & Record<string, unknown>>(
    `UPDATE ${BATCH_TABLE} SET ${set} WHERE id = $1 RETURNING ${BATCH_COLUMNS}`,
    values,
  );
  const row = rows[0];
  if (!row) throw new Error('locked batch row vanished');
  return row;
}

/** Starts every due batch (up to a bound per tick). */
export async function startDueBatches(ctx: WorkerContext): Promise<number> {
  let handled = 0;
  while (handled < MAX_STARTS_PER_TICK && !ctx.stopping()) {
    if ((await startNextDueBatch(ctx)) === 'none') break;
    handled += 1;
  }
  return handled;
}

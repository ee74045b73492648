import { type Sql, withTransaction } from '@msg/db';
import { queueBatchEvent } from '../batches/batch-events.js';
import { BATCH_COLUMNS, BATCH_TABLE, type BatchRow } from '../batches/batch-row.js';
import { readDelta } from '../batches/delta.js';
import type { WorkerContext } from './worker-context.js';

/** Most messages one batch.submission_progress_update carries (batch.yaml BatchEvent). */
export const MAX_DELTA_PER_EVENT = 2000;

/** Most batches one tick reports on; the rest wait for the next tick. */
const MAX_REPORTS_PER_TICK = 100;

/**
 * Reports the changes of one batch that has unreported ones and is due (its last report is older
 * than BATCH_PROGRESS_INTERVAL, or the batch has ended), then, once an ended batch has every
 * change reported, its final event. Each change goes into exactly one progress update (at most
 * 2000 each, in change order) because the cursor notified_change_seq moves in the same
 * transaction, under the batch row's lock, as the events are queued. Returns the batch id, or
 * undefined when no batch was due.
 */
export async function reportNextProgress(ctx: WorkerContext): Promise<string | undefined> {
  return withTransaction(ctx.pool, async (sql) => {
    const { rows } = await sql.query<BatchRow & Record<string, unknown>>(
      `SELECT ${BATCH_COLUMNS} FROM ${BATCH_TABLE}
        WHERE (notified_change_seq < last_change_seq
               AND (progress_at IS NULL
                    OR progress_at <= now() - $1::float8 * interval '1 millisecond'
                    OR status IN ('completed', 'failed')))
           OR (status IN ('completed', 'failed') AND NOT final_event_queued)
        ORDER BY progress_at NULLS FIRST
        LIMIT 1
        FOR UPDATE SKIP LOCKED`,
      [ctx.config.BATCH_PROGRESS_INTERVAL],
    );
    const batch = rows[0];
    if (!batch) return undefined;

    const lastChange = Number(batch.last_change_seq);
    let notified = Number(batch.notified_change_seq);
    if (notified < lastChange) {
      notified = await queueProgressUpdates(sql, batch, notified, lastChange);
    }
    const ended = batch.status === 'completed' || batch.status === 'failed';
    const finalNow = ended && !batch.final_event_queued && notified >= lastChange;
    if (finalNow) {
      await queueBatchEvent(
        sql,
        batch,
        batch.status === 'failed' ? 'batch.failed' : 'batch.submission_completed',
      );
    }
    await sql.query(
      `UPDATE ${BATCH_TABLE}
          SET notified_change_seq = $2, progress_at = now(),
              final_event_queued = final_event_queued OR $3
        WHERE id = $1`,
      [batch.id, notified, finalNow],
    );
    return batch.id;
  });
}

/**
 * Queues progress updates for the changes after `notified` up to `lastChange`, each with at most
 * MAX_DELTA_PER_EVENT messages; returns the new cursor. Without a callback URL there is no one to
 * tell: the cursor just moves.
 */
async function queueProgressUpdates(
  sql: Sql,
  batch: BatchRow,
  notified: number,
  lastChange: number,
): Promise<number> {
  if (!batch.callback_url) return lastChange;
  const decided = batch.submitted_messages + batch.failed_messages;
  const percentage =
    batch.total_messages === 0 ? 100 : Math.floor((decided * 100) / batch.total_messages);
  let cursor = notified;
  while (cursor < lastChange) {
    const page = await readDelta(sql, batch.id, cursor, MAX_DELTA_PER_EVENT);
    if (page.items.length === 0) break;
    await queueBatchEvent(sql, batch, 'batch.submission_progress_update', {
      submission_progress_percentage: percentage,
      submitted_messages_delta: page.items,
    });
    cursor = page.nextSequence;
  }
  // Messages purged or missing cannot be reported; do not ask again for them.
  return Math.max(cursor, lastChange);
}

/** Reports every batch that is due (up to a bound per tick). */
export async function reportDueProgress(ctx: WorkerContext): Promise<number> {
  let handled = 0;
  while (handled < MAX_REPORTS_PER_TICK && !ctx.stopping()) {
    if ((await reportNextProgress(ctx)) === undefined) break;
    handled += 1;
  }
  return handled;
}

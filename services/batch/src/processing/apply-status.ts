import { claimEvent } from '@msg/bus';
import type { SmsStatus } from '@msg/contracts';
import { type Sql, withTransaction } from '@msg/db';
import type pg from 'pg';
import {
  BATCH_COLUMNS,
  BATCH_SCHEMA,
  BATCH_TABLE,
  type BatchRow,
  batchById,
  MESSAGE_TABLE,
} from '../batches/batch-row.js';
import { completeIfDecided } from './complete-batch.js';

/** Consumer name of the status consumer in processed_event, and its consumer group. */
export const STATUS_CONSUMER = 'batch-status';

export type StatusOutcome = 'applied' | 'duplicate' | 'already-decided' | 'unknown-message';

/**
 * Applies one status report to its batch message, in one transaction with the dedupe claim: the
 * first report that decides a queued message (submitted — or delivered or expired when the
 * submit report never came — or failed) sets its submission status, gives it the batch's next
 * change_seq and moves the counters, under the batch row's lock; anything later for the same
 * message is ignored. The batch completes when that was its last undecided message.
 */
export async function applyStatusReport(
  pool: pg.Pool,
  eventId: string,
  report: SmsStatus,
  retentionMs: number,
): Promise<StatusOutcome> {
  return withTransaction(pool, async (sql) => {
    if (!(await claimEvent(sql, BATCH_SCHEMA, STATUS_CONSUMER, eventId))) return 'duplicate';
    const found = await sql.query<{ batch_id: string }>(
      `SELECT batch_id FROM ${MESSAGE_TABLE} WHERE transaction_id = $1`,
      [report.messageId],
    );
    const batchId = found.rows[0]?.batch_id;
    if (!batchId) return 'unknown-message';
    // The message's status only changes under its batch's lock: read it again holding the lock.
    const batch = await batchById(sql, batchId, { lock: true });
    if (!batch || batch.account_id !== report.accountId) return 'unknown-message';
    const message = await sql.query<{ seq: number; status: string }>(
      `SELECT seq, status FROM ${MESSAGE_TABLE} WHERE batch_id = $1 AND transaction_id = $2`,
      [batchId, report.messageId],
    );
    const current = message.rows[0];
    if (current?.status !== 'queued') return 'already-decided';

    const failed = report.state === 'failed';
    await decideMessage(sql, batch, current.seq, report, failed);
    const row = await sql.query<BatchRow & Record<string, unknown>>(
      `UPDATE ${BATCH_TABLE}
          SET last_change_seq = last_change_seq + 1,
              submitted_messages = submitted_messages + $2,
              failed_messages = failed_messages + $3
        WHERE id = $1
        RETURNING ${BATCH_COLUMNS}`,
      [batchId, failed ? 0 : 1, failed ? 1 : 0],
    );
    const updated = row.rows[0];
    if (!updated) throw new Error('locked batch row vanished');
    await completeIfDecided(sql, updated, retentionMs);
    return 'applied';
  });
}

async function decideMessage(
  sql: Sql,
  batch: BatchRow,
  seq: number,
  report: SmsStatus,
  failed: boolean,
): Promise<void> {
  await sql.query(
    `UPDATE ${MESSAGE_TABLE}
        SET status = $3, error = $4, change_seq = $5, submitted_at = $6
      WHERE batch_id = $1 AND seq = $2`,
    [
      batch.id,
      seq,
      failed ? 'failed' : 'submitted',
      failed ? (report.error?.description ?? 'failed') : null,
      Number(batch.last_change_seq) + 1,
      new Date(report.at),
    ],
  );
}

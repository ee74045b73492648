import type { Sql } from '@msg/db';
import { BATCH_COLUMNS, BATCH_TABLE, type BatchRow } from '../batches/batch-row.js';

/**
 * Ends a processing batch once every message is decided: 'completed', or 'failed' when not one
 * message was submitted. Its retention starts at the end, or at the scheduled start when that is
 * later. Call it holding the batch row's lock, after the change that may have decided the last
 * message; returns the row as it is now. The final event is left to the progress job, which
 * sends it after every change has been reported.
 */
export async function completeIfDecided(
  sql: Sql,
  row: BatchRow,
  retentionMs: number,
): Promise<BatchRow> {
  const decided = row.submitted_messages + row.failed_messages;
  if (row.status !== 'processing' || decided < row.total_messages) return row;
  const { rows } = await sql.query<BatchRow & Record<string, unknown>>(
    `UPDATE ${BATCH_TABLE}
        SET status = CASE WHEN submitted_messages = 0 THEN 'failed' ELSE 'completed' END,
            completed_at = now(),
            next_chunk_at = NULL,
            purge_after = greatest(now(), scheduled_at) + $2::float8 * interval '1 millisecond'
      WHERE id = $1
      RETURNING ${BATCH_COLUMNS}`,
    [row.id, retentionMs],
  );
  return rows[0] ?? row;
}

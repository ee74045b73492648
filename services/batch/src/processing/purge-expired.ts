import { withTransaction } from '@msg/db';
import { BATCH_TABLE, MESSAGE_TABLE } from '../batches/batch-row.js';
import type { WorkerContext } from './worker-context.js';

/** Messages deleted per transaction: a million-message batch is purged in short transactions. */
export const PURGE_CHUNK = 10_000;

/** Most purge transactions per tick. */
const MAX_PURGES_PER_TICK = 20;

/**
 * Deletes up to PURGE_CHUNK messages of one batch whose retention is over, and the batch row
 * with its last ones. The batch row is locked (SKIP LOCKED) for each step, so replicas purge
 * different batches, and a crash between steps only leaves fewer messages for the next step.
 * Returns whether anything was due.
 */
export async function purgeNextExpired(
  ctx: Pick<WorkerContext, 'pool'>,
  chunk = PURGE_CHUNK,
): Promise<boolean> {
  return withTransaction(ctx.pool, async (sql) => {
    const { rows } = await sql.query<{ id: string }>(
      `SELECT id FROM ${BATCH_TABLE} WHERE purge_after < now()
        ORDER BY purge_after LIMIT 1 FOR UPDATE SKIP LOCKED`,
    );
    const batch = rows[0];
    if (!batch) return false;
    const deleted = await sql.query(
      `DELETE FROM ${MESSAGE_TABLE}
        WHERE batch_id = $1
          AND seq IN (SELECT seq FROM ${MESSAGE_TABLE} WHERE batch_id = $1 ORDER BY seq LIMIT $2)`,
      [batch.id, chunk],
    );
    if ((deleted.rowCount ?? 0) < chunk) {
      await sql.query(`DELETE FROM ${BATCH_TABLE} WHERE id = $1`, [batch.id]);
    }
    return true;
  });
}

/** Purges expired batches (a bounded number of steps per tick). */
export async function purgeExpired(ctx: WorkerContext): Promise<number> {
  let steps = 0;
  while (steps < MAX_PURGES_PER_TICK && !ctx.stopping()) {
    if (!(await purgeNextExpired(ctx))) break;
    steps += 1;
  }
  return steps;
}

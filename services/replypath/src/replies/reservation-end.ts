import type { Sql } from '@msg/db';
import { REPLYPATH_SCHEMA } from '../schema.js';

/**
 * VP elapsed (3.2 "VP elapses → expired"): removes up to `limit` sent-message records whose
 * validity period ended, with their replies (retention = VP, 8.2), and the reservation rows whose
 * quarantine is over (nothing can be credited to them any more). An elapsed reservation keeps its
 * row through the quarantine: it is expired by its time (ends_at ≤ now, never matched again), not
 * by a flag. Messages are claimed with FOR UPDATE SKIP LOCKED, so replicas share the work; a
 * reply being stored for a message holds a key-share lock on it (the replies' foreign key), so
 * the removal waits for it and removes it too. Answers how many message records were removed.
 */
export async function expireDueMessages(
  sql: Sql,
  { now, limit }: { now: Date; limit: number },
): Promise<number> {
  const { rowCount } = await sql.query(
    `WITH due AS (
       SELECT "transaction_id" FROM "${REPLYPATH_SCHEMA}"."messages"
        WHERE "expires_at" <= $1 ORDER BY "expires_at" LIMIT $2
          FOR UPDATE SKIP LOCKED
     )
     DELETE FROM "${REPLYPATH_SCHEMA}"."messages" m USING due
      WHERE m."transaction_id" = due."transaction_id"`,
    [now, limit],
  );
  return rowCount ?? 0;
}

/**
 * The sent-message record of a OneShot message whose first reply was processed (3.2 "reply
 * processed incl. callback attempt → released"), with the replies stored for it (cascade).
 */
export async function deleteSentMessage(sql: Sql, transactionId: string): Promise<void> {
  await sql.query(`DELETE FROM "${REPLYPATH_SCHEMA}"."messages" WHERE "transaction_id" = $1`, [
    transactionId,
  ]);
}

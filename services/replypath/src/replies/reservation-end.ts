import type { Sql } from '@msg/db';
import { REPLYPATH_SCHEMA } from '../service.js';

/**
 * OneShot (3.2 "reply processed incl. callback attempt → released"): the reservation ends now
 * and its sent-message record goes, with the replies stored for it (cascade). The reservation's
 * row stays as the pair's quarantine until `now + quarantineMs`, so a later reply is neither
 * processed nor credited to a newer message of the same pair. Runs in the reply's transaction,
 * which holds the reservation's lock.
 */
export async function releaseOneShot(
  sql: Sql,
  { reservationId, transactionId }: { reservationId: string; transactionId: string },
  { now, quarantineMs }: { now: Date; quarantineMs: number },
): Promise<void> {
  await sql.query(
    `UPDATE "${REPLYPATH_SCHEMA}"."reservations"
        SET "released_at" = $2, "ends_at" = $2,
            "quarantine_until" = $2::timestamptz + make_interval(secs => $3::double precision / 1000)
      WHERE "id" = $1`,
    [reservationId, now, quarantineMs],
  );
  await sql.query(`DELETE FROM "${REPLYPATH_SCHEMA}"."messages" WHERE "transaction_id" = $1`, [
    transactionId,
  ]);
}

/**
 * VP elapsed (3.2 "VP elapses → expired"): removes up to `limit` sent-message records whose
 * validity period ended, with their replies (retention = VP, 8.2), and the reservation rows whose
 * quarantine is over (nothing can be credited to them any more). An elapsed reservation keeps its
 * row through the quarantine: it is expired by its time (ends_at ≤ now, never matched again), not
 * by a flag. Claimed with FOR UPDATE SKIP LOCKED, so replicas share the work; a reply being stored
 * for the message holds a key-share lock on it (the replies' foreign key), so the removal waits
 * for it and removes it too. Answers how many message records were removed.
 */
export async function expireDueReservations(
  sql: Sql,
  { now, limit }: { now: Date; limit: number },
): Promise<number> {
  const removed = await deleteDue(sql, 'messages', 'transaction_id', 'expires_at', now, limit);
  await deleteDue(sql, 'reservations', 'id', 'quarantine_until', now, limit);
  return removed;
}

/** Deletes up to `limit` rows of `table` whose `due` moment is at or before `now`, skipping locked ones. */
async function deleteDue(
  sql: Sql,
  table: 'messages' | 'reservations',
  key: 'transaction_id' | 'id',
  due: 'expires_at' | 'quarantine_until',
  now: Date,
  limit: number,
): Promise<number> {
  const { rowCount } = await sql.query(
    `WITH due AS (
       SELECT "${key}" FROM "${REPLYPATH_SCHEMA}"."${table}"
        WHERE "${due}" <= $1 ORDER BY "${due}" LIMIT $2
          FOR UPDATE SKIP LOCKED
     )
     DELETE FROM "${REPLYPATH_SCHEMA}"."${table}" t USING due WHERE t."${key}" = due."${key}"`,
    [now, limit],
  );
  return rowCount ?? 0;
}

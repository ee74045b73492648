import type { Sql } from '@msg/db';

/** A row of replypath.reservations. */
export interface Reservation {
  id: string;
  /** The allocated pool number (E.164), the message's sender. */
  number: string;
  /** The recipient (E.164). */
  recipient: string;
  /** The message (its TransactionId). */
  transactionId: string;
  accountId: string;
  oneShot: boolean;
  dlr: boolean;
  /** Replies in [startsAt, endsAt) belong to the message. */
  startsAt: Date;
  endsAt: Date;
  /** Until then the (recipient, number) pair is not allocated again. */
  quarantineUntil: Date;
  /** Set when a OneShot reservation was released by its first reply. */
  releasedAt: Date | null;
}

const COLUMNS = `"id", "number", "recipient", "transaction_id" AS "transactionId",
  "account_id" AS "accountId", "one_shot" AS "oneShot", "dlr", "starts_at" AS "startsAt",
  "ends_at" AS "endsAt", "quarantine_until" AS "quarantineUntil", "released_at" AS "releasedAt"`;

/** Writes one reservation; the exclusion constraint refuses an overlapping pair (23P01). */
export async function insertReservation(sql: Sql, r: Omit<Reservation, 'releasedAt'>) {
  await sql.query(
    `INSERT INTO "replypath"."reservations"
       ("id", "number", "recipient", "transaction_id", "account_id", "one_shot", "dlr",
        "starts_at", "ends_at", "quarantine_until")
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      r.id,
      r.number,
      r.recipient,
      r.transactionId,
      r.accountId,
      r.oneShot,
      r.dlr,
      r.startsAt,
      r.endsAt,
      r.quarantineUntil,
    ],
  );
}

/**
 * The reservation a reply from `recipient` to `number` at `at` belongs to: its window is open
 * and it was not released. At most one exists (the exclusion constraint); none for a late reply,
 * a reply to a released OneShot message, or a reply to a VP 0 message.
 */
export async function findActiveReservation(
  sql: Sql,
  { recipient, number, at }: { recipient: string; number: string; at: Date },
): Promise<Reservation | undefined> {
  const { rows } = await sql.query<Reservation & Record<string, unknown>>(
    `SELECT ${COLUMNS} FROM "replypath"."reservations"
      WHERE "recipient" = $1 AND "number" = $2 AND "starts_at" <= $3 AND "ends_at" > $3
        AND "released_at" IS NULL`,
    [recipient, number, at],
  );
  return rows[0];
}

/** The reservation of one message, whatever its state. */
export async function findReservationOf(
  sql: Sql,
  transactionId: string,
): Promise<Reservation | undefined> {
  const { rows } = await sql.query<Reservation & Record<string, unknown>>(
    `SELECT ${COLUMNS} FROM "replypath"."reservations" WHERE "transaction_id" = $1`,
    [transactionId],
  );
  return rows[0];
}

/**
 * Ends a reservation early (OneShot after its first reply, spec 3.2): its window closes at `at`
 * and its pair stays quarantined for `quarantineMs` from then (never longer than before). The
 * row stays until the quarantine is over, so the pair is not reused while a late reply may
 * still arrive. Returns whether a reservation was released (false: unknown or already released).
 */
export async function releaseReservation(
  sql: Sql,
  { transactionId, at, quarantineMs }: { transactionId: string; at: Date; quarantineMs: number },
): Promise<boolean> {
  const { rowCount } = await sql.query(
    `UPDATE "replypath"."reservations"
        SET "released_at" = $2,
            "ends_at" = GREATEST("starts_at", LEAST("ends_at", $2)),
            "quarantine_until" = GREATEST("starts_at", LEAST("ends_at", $2),
                                          LEAST("quarantine_until", $3))
      WHERE "transaction_id" = $1 AND "released_at" IS NULL`,
    [transactionId, at, new Date(at.getTime() + quarantineMs)],
  );
  return rowCount === 1;
}

/** Removes reservations whose quarantine is over (the sweeper's part); returns how many. */
export async function deleteFinishedReservations(sql: Sql, at: Date): Promise<number> {
  const { rowCount } = await sql.query(
    `DELETE FROM "replypath"."reservations" WHERE "quarantine_until" <= $1`,
    [at],
  );
  return rowCount ?? 0;
}

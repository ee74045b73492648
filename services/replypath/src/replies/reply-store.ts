import type { Sql } from '@msg/db';
import { REPLYPATH_SCHEMA } from '../service.js';

/** The active reservation an inbound SMS answers, with what forwarding needs of its message. */
export interface MatchedReservation {
  reservationId: string;
  transactionId: string;
  accountId: string;
  oneShot: boolean;
  /** The reservation's end (VP end): forwarding is given up then. */
  endsAt: Date;
}

/**
 * The reservation of (recipient, allocated number) active at `now` — not released (OneShot) and
 * `now` in [starts_at, ends_at) — locked until the transaction ends, so a OneShot release of the
 * same reservation by a concurrent reply waits. A released or expired reservation no longer
 * covers `now`, and a newer reservation of the same pair can start only after the quarantine of
 * the old one (the exclusion constraint over [starts_at, quarantine_until)), so a late reply is
 * never credited to a newer message.
 */
export async function findActiveReservation(
  sql: Sql,
  { from, to, now }: { from: string; to: string; now: Date },
): Promise<MatchedReservation | undefined> {
  const { rows } = await sql.query<{
    id: string;
    transaction_id: string;
    account_id: string;
    one_shot: boolean;
    ends_at: Date;
  }>(
    `SELECT "id", "transaction_id", "account_id", "one_shot", "ends_at"
       FROM "${REPLYPATH_SCHEMA}"."reservations"
      WHERE "recipient" = $1 AND "number" = $2 AND "released_at" IS NULL
        AND "starts_at" <= $3 AND "ends_at" > $3
        FOR UPDATE`,
    [from, to, now],
  );
  const row = rows[0];
  return (
    row && {
      reservationId: row.id,
      transactionId: row.transaction_id,
      accountId: row.account_id,
      oneShot: row.one_shot,
      endsAt: row.ends_at,
    }
  );
}

export type ForwardState = 'requested' | 'no-callback';

/**
 * Stores a reply linked to its message; false when this SMSC message was stored already (an
 * SMSC that resent it with the same id, published as a new event).
 */
export async function insertReply(
  sql: Sql,
  reply: {
    id: string;
    transactionId: string;
    from: string;
    text: string;
    receivedAt: Date;
    inboundEventId: string;
    smscMessageId: string | undefined;
    forwardState: ForwardState;
    callbackId: string | null;
  },
): Promise<boolean> {
  const result = await sql.query(
    `INSERT INTO "${REPLYPATH_SCHEMA}"."replies"
       ("id", "transaction_id", "from", "text", "received_at", "inbound_event_id",
        "smsc_message_id", "forward_state", "callback_id")
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT DO NOTHING`,
    [
      reply.id,
      reply.transactionId,
      reply.from,
      reply.text,
      reply.receivedAt,
      reply.inboundEventId,
      reply.smscMessageId ?? null,
      reply.forwardState,
      reply.callbackId,
    ],
  );
  return result.rowCount === 1;
}

/** Whether `to` is one of the pool's numbers (inbound SMS to other numbers are not ours). */
export async function isPoolNumber(sql: Sql, to: string): Promise<boolean> {
  const { rows } = await sql.query(
    `SELECT 1 FROM "${REPLYPATH_SCHEMA}"."pool_numbers" WHERE "number" = $1`,
    [to],
  );
  return rows.length > 0;
}

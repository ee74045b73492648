import type { Sql } from '@msg/db';
import { REPLYPATH_SCHEMA } from '../schema.js';

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

/**
 * The account whose reservation of (recipient, number) started last before `at`, while its row
 * is kept (active, expired or released, until its quarantine is over): whom a stop word sent to
 * the number after the reply window still concerns. Never used to forward or store anything.
 */
export async function lastAccountOfPair(
  sql: Sql,
  { recipient, number, at }: { recipient: string; number: string; at: Date },
): Promise<string | undefined> {
  const { rows } = await sql.query<{ account_id: string }>(
    `SELECT "account_id" FROM "${REPLYPATH_SCHEMA}"."reservations"
      WHERE "recipient" = $1 AND "number" = $2 AND "starts_at" <= $3
      ORDER BY "starts_at" DESC LIMIT 1`,
    [recipient, number, at],
  );
  return rows[0]?.account_id;
}

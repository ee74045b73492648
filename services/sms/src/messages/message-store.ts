import { type BusMessage, outboxInsert, outboxNotify } from '@msg/bus';
import { Topics } from '@msg/contracts';
import type pg from 'pg';

/** The Postgres schema that holds the SMS service's tables (and its outbox). */
export const SMS_SCHEMA = 'sms';

/** A new row of sms.message as the intake writes it; the rest takes the column defaults. */
export interface AcceptedMessageRow {
  id: string;
  accountId: string;
  recipient: string;
  sender: string;
  text: string;
  encoding: string;
  parts: number;
  callbackUrl: string | null;
}

/**
 * The intake's one round trip: the message row, its sms.outbound.v1 outbox row and the relay's
 * wake-up in one statement. A single statement is its own transaction, so both rows commit
 * together or not at all, as the outbox requires — without BEGIN and COMMIT round trips.
 */
export async function insertAcceptedMessage(
  pool: pg.Pool,
  row: AcceptedMessageRow,
  outbound: BusMessage,
): Promise<void> {
  const messageValues = [
    row.id,
    row.accountId,
    row.recipient,
    row.sender,
    row.text,
    row.encoding,
    row.parts,
    row.callbackUrl,
  ];
  const insert = outboxInsert(SMS_SCHEMA, Topics.smsOutbound, [outbound], messageValues.length + 1);
  const notify = outboxNotify(SMS_SCHEMA, messageValues.length + insert.values.length + 1);
  await pool.query(
    `WITH "message" AS (
       INSERT INTO "sms"."message"
         ("id", "account_id", "recipient", "sender", "text", "encoding", "parts", "callback_url")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ), "outbox" AS (${insert.text})
     ${notify.text}`,
    [...messageValues, ...insert.values, ...notify.values],
  );
}

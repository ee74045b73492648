import { outboxNotify } from '@msg/bus';
import { type OutboundSms, outboundInsert } from '@msg/sms-submit';
import type pg from 'pg';
import { SMS_SCHEMA } from '../schema.js';

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

/** A message to accept and its sms.outbound.v1 event (submitSms of @msg/sms-submit). */
export interface AcceptedMessage {
  row: AcceptedMessageRow;
  outbound: OutboundSms;
}

/** Columns of AcceptedMessageRow, in insert order. */
const COLUMNS = 8;

/**
 * The intake's one round trip for a batch of sends: the message rows, their sms.outbound.v1
 * outbox rows and the relay's wake-up in one statement. A single statement is its own
 * transaction, so every row of the batch commits or none does, as the outbox requires — without
 * BEGIN and COMMIT round trips. At most 500 messages (13 parameters each).
 */
export async function insertAcceptedMessages(
  pool: pg.Pool,
  messages: AcceptedMessage[],
): Promise<void> {
  const values: unknown[] = [];
  const rows = messages.map(({ row }, i) => {
    values.push(
      row.id,
      row.accountId,
      row.recipient,
      row.sender,
      row.text,
      row.encoding,
      row.parts,
      row.callbackUrl,
    );
    const p = i * COLUMNS;
    return `(${Array.from({ length: COLUMNS }, (_, c) => `$${p + c + 1}`).join(', ')})`;
  });
  const insert = outboundInsert(
    SMS_SCHEMA,
    { messages: messages.flatMap((m) => m.outbound.messages) },
    values.length + 1,
  );
  const notify = outboxNotify(SMS_SCHEMA, values.length + insert.values.length + 1);
  await pool.query(
    `WITH "message" AS (
       INSERT INTO "sms"."message"
         ("id", "account_id", "recipient", "sender", "text", "encoding", "parts", "callback_url")
       VALUES ${rows.join(', ')}
     ), "outbox" AS (${insert.text})
     ${notify.text}`,
    [...values, ...insert.values, ...notify.values],
  );
}

import type { Sql } from '@msg/db';

/** A row of replypath.messages: the sent-message record (spec 3.2), kept for the VP. */
export interface SentMessage {
  transactionId: string;
  accountId: string;
  source: 'replypath' | 'replypath-legacy';
  recipient: string;
  /** The allocated pool number, the sender. */
  number: string;
  text: string;
  parts: number;
  encoding: string;
  dlr: boolean;
  oneShot: boolean;
  vp: number;
  createdAt: Date;
  /** End of the reply window (created_at + VP); the record is removed after it. */
  expiresAt: Date;
}

const COLUMNS = [
  'transaction_id',
  'account_id',
  'source',
  'recipient',
  'number',
  'text',
  'parts',
  'encoding',
  'dlr',
  'one_shot',
  'vp',
  'created_at',
  'expires_at',
] as const;

/** Writes the sent-message records of one request in one statement (the caller's transaction). */
export async function insertSentMessages(sql: Sql, messages: SentMessage[]): Promise<void> {
  const values: unknown[] = [];
  const rows = messages.map((m, i) => {
    values.push(
      m.transactionId,
      m.accountId,
      m.source,
      m.recipient,
      m.number,
      m.text,
      m.parts,
      m.encoding,
      m.dlr,
      m.oneShot,
      m.vp,
      m.createdAt,
      m.expiresAt,
    );
    const p = i * COLUMNS.length;
    return `(${COLUMNS.map((_, c) => `$${p + c + 1}`).join(', ')})`;
  });
  await sql.query(
    `INSERT INTO "replypath"."messages" (${COLUMNS.map((c) => `"${c}"`).join(', ')})
     VALUES ${rows.join(', ')}`,
    values,
  );
}

/** The sent-message record of one message (rp-inbound's matching reads it). */
export async function findSentMessage(
  sql: Sql,
  transactionId: string,
): Promise<SentMessage | undefined> {
  const { rows } = await sql.query<SentMessage & Record<string, unknown>>(
    `SELECT "transaction_id" AS "transactionId", "account_id" AS "accountId", "source",
            "recipient", "number", "text", "parts", "encoding", "dlr", "one_shot" AS "oneShot",
            "vp", "created_at" AS "createdAt", "expires_at" AS "expiresAt"
       FROM "replypath"."messages" WHERE "transaction_id" = $1`,
    [transactionId],
  );
  return rows[0];
}

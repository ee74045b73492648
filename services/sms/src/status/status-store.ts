import type { Sql } from '@msg/db';
import { SMS_SCHEMA } from '../schema.js';

/**
 * The status consumer's statements (a hot path, so pg: one multi-row statement per step of a
 * batch, not one per event). Each runs in the caller's transaction.
 */

/** What the status consumer reads of a message it is about to change. */
export type MessageStatusRow = {
  id: string;
  account_id: string;
  status: string;
  smsc_message_ids: string[];
  callback_url: string | null;
  parts: number;
};

/** The new state of a changed message, after every report of the batch about it. */
export interface MessageStatusChange {
  id: string;
  status: string;
  smscMessageIds: string[];
  /** ISO timestamps; null keeps the stored value. */
  submittedAt: string | null;
  completedAt: string | null;
  error: unknown;
}

/** The messages, locked until the transaction ends; in id order, so batches cannot deadlock. */
export async function lockMessages(
  sql: Sql,
  ids: string[],
): Promise<Map<string, MessageStatusRow>> {
  const { rows } = await sql.query<MessageStatusRow>(
    `SELECT "id", "account_id", "status", "smsc_message_ids", "callback_url", "parts"
     FROM "${SMS_SCHEMA}"."message" WHERE "id" = ANY($1::uuid[]) ORDER BY "id" FOR UPDATE`,
    [[...new Set(ids)]],
  );
  return new Map(rows.map((row) => [row.id, row]));
}

/** Writes every change of the batch in one statement. */
export async function updateMessageStatuses(
  sql: Sql,
  changes: MessageStatusChange[],
): Promise<void> {
  if (changes.length === 0) return;
  await sql.query(
    `UPDATE "${SMS_SCHEMA}"."message" AS m SET
       "status" = c."status",
       "smsc_message_ids" = c."smsc_message_ids",
       "submitted_at" = coalesce(c."submitted_at", m."submitted_at"),
       "completed_at" = coalesce(c."completed_at", m."completed_at"),
       "error" = coalesce(c."error", m."error"),
       "updated_at" = now()
     FROM jsonb_to_recordset($1::jsonb) AS c (
       "id" uuid, "status" text, "smsc_message_ids" text[], "submitted_at" timestamptz,
       "completed_at" timestamptz, "error" jsonb)
     WHERE m."id" = c."id"`,
    [
      JSON.stringify(
        changes.map((c) => ({
          id: c.id,
          status: c.status,
          smsc_message_ids: c.smscMessageIds,
          submitted_at: c.submittedAt,
          completed_at: c.completedAt,
          error: c.error ?? null,
        })),
      ),
    ],
  );
}

import { makeEvent, SMS_SOURCE_HEADER, SMS_STATUS_EVENT, type SmsStatus } from '@msg/contracts';
import type { Sql } from '@msg/db';

/** The columns of a submission a status event is made of. */
export interface SubmissionStatusRow extends Record<string, unknown> {
  message_id: string;
  account_id: string;
  source: SmsStatus['source'];
  parts: number;
  smsc_message_ids: string[];
}

/** One SMSC message id as receipts name it: the bind's receipt scope and the SMSC's id. */
export interface SmscMessageKey {
  scope: string;
  smscMessageId: string;
}

/**
 * Serialises the transactions about the given SMSC message ids (the submission that records one,
 * the receipt that marks it). Without it, under READ COMMITTED a receipt could miss the
 * uncommitted part, park itself as an orphan after the submission looked for orphans, and never
 * be applied. All keys are taken in one statement, in key order: two batches that share ids then
 * wait for each other instead of deadlocking.
 */
export async function lockSmscMessages(sql: Sql, keys: readonly SmscMessageKey[]): Promise<void> {
  if (keys.length === 0) return;
  await sql.query(
    `SELECT pg_advisory_xact_lock(k.key)
       FROM (SELECT DISTINCT hashtextextended(name, 0) AS key FROM unnest($1::text[]) AS name
              ORDER BY 1) AS k`,
    [keys.map((key) => `smsc_connector/part/${key.scope}/${key.smscMessageId}`)],
  );
}

export function statusEvent(status: SmsStatus) {
  return {
    key: status.messageId,
    value: makeEvent(SMS_STATUS_EVENT, status, { accountId: status.accountId }),
    headers: { [SMS_SOURCE_HEADER]: status.source },
  };
}

/** A JSON array parameter for `jsonb_to_recordset($n::jsonb)`: many rows in one statement. */
export const jsonRows = (rows: readonly object[]): string => JSON.stringify(rows);

import { enqueueOutbox } from '@msg/bus';
import { type SmsStatus, Topics } from '@msg/contracts';
import type { Sql } from '@msg/db';
import {
  combinePartStates,
  type DeliveryReceipt,
  type PartFinalState,
} from './delivery-receipt.js';
import { SMSC_CONNECTOR_SCHEMA } from './schema.js';
import { jsonRows, lockSmscMessages, type SubmissionStatusRow, statusEvent } from './store-sql.js';

/** A receipt and the receipt scope of the bind it came on. */
export interface ScopedReceipt {
  scope: string;
  receipt: DeliveryReceipt;
  /** When it arrived (this process's clock, like AcceptedPart.acceptedAt); now when absent. */
  receivedAt?: Date;
}

/** applied: it marked a part; orphan: no part yet, parked; duplicate: its part was final already. */
export type ReceiptOutcome = 'applied' | 'orphan' | 'duplicate';

const keyOf = (scope: string, smscMessageId: string) => JSON.stringify([scope, smscMessageId]);

/**
 * Marks the parts the receipts are about and, for each message whose parts are now all final,
 * enqueues its one final status — a handful of multi-row statements for the whole batch.
 * A receipt for a part not (yet) recorded is parked as an orphan for its submission's commit.
 */
export async function applyReceipts(
  sql: Sql,
  receipts: readonly ScopedReceipt[],
): Promise<ReceiptOutcome[]> {
  if (receipts.length === 0) return [];
  await lockSmscMessages(
    sql,
    receipts.map(({ scope, receipt }) => ({ scope, smscMessageId: receipt.smscMessageId })),
  );
  // The same receipt twice in one batch (the SMSC resent it): the first counts.
  const firstIndex = new Map<string, number>();
  for (const [index, { scope, receipt }] of receipts.entries()) {
    const key = keyOf(scope, receipt.smscMessageId);
    if (!firstIndex.has(key)) firstIndex.set(key, index);
  }
  const rows = [...firstIndex.values()].flatMap((index) => {
    const item = receipts[index];
    if (!item) return [];
    const { scope, receipt, receivedAt = new Date() } = item;
    return [
      {
        bind: scope,
        smsc_message_id: receipt.smscMessageId,
        state: receipt.state,
        stat: receipt.stat,
        err: receipt.err,
        received_at: receivedAt.toISOString(),
      },
    ];
  });
  const { rows: marked } = await sql.query<{
    bind: string;
    smsc_message_id: string;
    message_id: string;
  }>(
    `UPDATE "${SMSC_CONNECTOR_SCHEMA}"."submitted_part" p
        SET "final_state" = r."state", "receipt_stat" = r."stat", "receipt_err" = r."err"
       FROM jsonb_to_recordset($1::jsonb)
         AS r("bind" text, "smsc_message_id" text, "state" text, "stat" text, "err" text)
      WHERE p."bind" = r."bind" AND p."smsc_message_id" = r."smsc_message_id"
        AND p."final_state" IS NULL
      RETURNING p."bind", p."smsc_message_id", p."message_id"`,
    [jsonRows(rows)],
  );
  const markedKeys = new Set(marked.map((row) => keyOf(row.bind, row.smsc_message_id)));
  const unmatched = rows.filter((row) => !markedKeys.has(keyOf(row.bind, row.smsc_message_id)));
  const known = await parkOrphans(sql, unmatched);
  await publishFinalStatuses(sql, [...new Set(marked.map((row) => row.message_id))]);
  return receipts.map(({ scope, receipt }, index) => {
    const key = keyOf(scope, receipt.smscMessageId);
    if (firstIndex.get(key) !== index) return 'duplicate';
    if (markedKeys.has(key)) return 'applied';
    return known.has(key) ? 'duplicate' : 'orphan';
  });
}

/**
 * Parks receipts that marked no part; returns the keys whose part exists (and was final).
 * Those are parked too: a reused SMSC id leaves an older message's final part under the id
 * while the newer submission's commit may still be on its way, and that commit takes the
 * orphan over if it arrived after (or just before) the new part was accepted. A true
 * duplicate's orphan is never claimed and is removed after an hour by the expiry sweeper.
 */
async function parkOrphans(
  sql: Sql,
  rows: readonly {
    bind: string;
    smsc_message_id: string;
    state: string;
    stat: string | null;
    err: string | null;
    received_at: string;
  }[],
): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const { rows: known } = await sql.query<{ bind: string; smsc_message_id: string }>(
    `WITH input AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb)
         AS r("bind" text, "smsc_message_id" text, "state" text, "stat" text, "err" text,
              "received_at" timestamptz)
     ), parked AS (
       INSERT INTO "${SMSC_CONNECTOR_SCHEMA}"."orphan_receipt"
         ("bind", "smsc_message_id", "state", "stat", "err", "received_at")
       SELECT "bind", "smsc_message_id", "state", "stat", "err", "received_at" FROM input
       ON CONFLICT ("bind", "smsc_message_id") DO UPDATE
          SET "state" = excluded."state", "stat" = excluded."stat", "err" = excluded."err",
              "received_at" = excluded."received_at"
       RETURNING 1
     )
     SELECT i."bind", i."smsc_message_id"
       FROM input i
       JOIN "${SMSC_CONNECTOR_SCHEMA}"."submitted_part" p USING ("bind", "smsc_message_id")`,
    [jsonRows(rows)],
  );
  return new Set(known.map((row) => keyOf(row.bind, row.smsc_message_id)));
}

/** Enqueues the final status of each given message whose parts all have a final state now. */
async function publishFinalStatuses(sql: Sql, messageIds: readonly string[]): Promise<void> {
  if (messageIds.length === 0) return;
  // Locked in id order: the expiry sweeper and other batches cannot publish a second status.
  const { rows: submissions } = await sql.query<SubmissionStatusRow>(
    `SELECT "message_id", "account_id", "source", "parts", "smsc_message_ids"
       FROM "${SMSC_CONNECTOR_SCHEMA}"."submission"
      WHERE "message_id" = ANY($1::text[]) AND "state" = 'submitted' AND "final_state" IS NULL
      ORDER BY "message_id"
        FOR UPDATE`,
    [messageIds],
  );
  if (submissions.length === 0) return;
  const { rows: parts } = await sql.query<{
    message_id: string;
    final_state: PartFinalState | null;
    receipt_stat: string | null;
    receipt_err: string | null;
  }>(
    `SELECT "message_id", "final_state", "receipt_stat", "receipt_err"
       FROM "${SMSC_CONNECTOR_SCHEMA}"."submitted_part"
      WHERE "message_id" = ANY($1::text[])
      ORDER BY "message_id", "part_no"`,
    [submissions.map((submission) => submission.message_id)],
  );
  const partsOf = new Map<string, typeof parts>();
  for (const part of parts) {
    const own = partsOf.get(part.message_id);
    if (own) own.push(part);
    else partsOf.set(part.message_id, [part]);
  }
  const at = new Date().toISOString();
  const finished = submissions.flatMap((submission) => {
    const own = partsOf.get(submission.message_id) ?? [];
    const finals = own.flatMap((part) => (part.final_state ? [part.final_state] : []));
    if (finals.length < submission.parts) return [];
    const state = combinePartStates(finals);
    const culprit = own.find((part) => part.final_state === state && state !== 'delivered');
    const status: SmsStatus = {
      messageId: submission.message_id,
      accountId: submission.account_id,
      source: submission.source,
      state,
      smscMessageIds: submission.smsc_message_ids,
      parts: submission.parts,
      at,
      ...(culprit
        ? {
            error: {
              ...(culprit.receipt_stat ? { receiptStat: culprit.receipt_stat } : {}),
              ...(culprit.receipt_err ? { receiptError: culprit.receipt_err } : {}),
              description: `delivery receipt: ${culprit.receipt_stat ?? state}`,
            },
          }
        : {}),
    };
    return [status];
  });
  if (finished.length === 0) return;
  await sql.query(
    `UPDATE "${SMSC_CONNECTOR_SCHEMA}"."submission" s SET "final_state" = r."state"
       FROM jsonb_to_recordset($1::jsonb) AS r("message_id" text, "state" text)
      WHERE s."message_id" = r."message_id"`,
    [jsonRows(finished.map((status) => ({ message_id: status.messageId, state: status.state })))],
  );
  await enqueueOutbox(sql, SMSC_CONNECTOR_SCHEMA, Topics.smsStatus, finished.map(statusEvent));
}

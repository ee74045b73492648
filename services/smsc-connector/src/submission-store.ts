import { enqueueOutbox } from '@msg/bus';
import {
  makeEvent,
  SMS_STATUS_EVENT,
  type SmsOutbound,
  type SmsStatus,
  Topics,
} from '@msg/contracts';
import type { Sql } from '@msg/db';
import {
  combinePartStates,
  type DeliveryReceipt,
  type PartFinalState,
} from './delivery-receipt.js';

export const SCHEMA = 'smsc_connector';

export interface AcceptedPart {
  partNo: number;
  /** SmppBind.scope of the bind that got the submit_sm_resp. */
  scope: string;
  smscMessageId: string;
}

export interface SubmissionOutcome {
  message: SmsOutbound;
  /** Parts the text was split into (what receipts are counted against), 0 when unsplittable. */
  parts: number;
  bindName: string | null;
  accepted: AcceptedPart[];
  /** Set when the SMSC (or the splitter) refused the message: its status is then 'failed'. */
  error?: SmsStatus['error'];
  at: Date;
}

/**
 * Serialises the transactions about one SMSC message id (the submission that records it, the
 * receipt that marks it). Without it, under READ COMMITTED a receipt could miss the uncommitted
 * part, park itself as an orphan after the submission looked for orphans, and never be applied.
 */
export async function lockSmscMessage(
  sql: Sql,
  scope: string,
  smscMessageId: string,
): Promise<void> {
  await sql.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
    `smsc_connector/part/${scope}/${smscMessageId}`,
  ]);
}

export async function submissionExists(sql: Sql, messageId: string): Promise<boolean> {
  const { rows } = await sql.query(
    `SELECT 1 FROM "${SCHEMA}"."submission" WHERE "message_id" = $1`,
    [messageId],
  );
  return rows.length > 0;
}

function statusEvent(status: SmsStatus) {
  return {
    key: status.messageId,
    value: makeEvent(SMS_STATUS_EVENT, status, { accountId: status.accountId }),
  };
}

/**
 * Records a finished submission and its 'submitted' or 'failed' status in the caller's
 * transaction, then applies receipts that overtook it. False when another consumer recorded the
 * same message first (then nothing is published twice).
 */
export async function recordSubmission(sql: Sql, outcome: SubmissionOutcome): Promise<boolean> {
  const { message, accepted, error, at } = outcome;
  const state = error ? 'failed' : 'submitted';
  const smscMessageIds = accepted.map((part) => part.smscMessageId);
  const inserted = await sql.query(
    `INSERT INTO "${SCHEMA}"."submission"
       ("message_id", "account_id", "source", "parts", "state", "smsc_message_ids", "bind", "error", "submitted_at")
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT ("message_id") DO NOTHING`,
    [
      message.messageId,
      message.accountId,
      message.source,
      outcome.parts,
      state,
      smscMessageIds,
      outcome.bindName,
      error ? JSON.stringify(error) : null,
      at,
    ],
  );
  if (inserted.rowCount === 0) return false;
  for (const part of accepted) {
    await lockSmscMessage(sql, part.scope, part.smscMessageId);
    await sql.query(
      `INSERT INTO "${SCHEMA}"."submitted_part" ("bind", "smsc_message_id", "message_id", "part_no")
       VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
      [part.scope, part.smscMessageId, message.messageId, part.partNo],
    );
  }
  await enqueueOutbox(sql, SCHEMA, Topics.smsStatus, [
    statusEvent({
      messageId: message.messageId,
      accountId: message.accountId,
      source: message.source,
      state,
      smscMessageIds,
      parts: outcome.parts,
      at: at.toISOString(),
      ...(error ? { error } : {}),
    }),
  ]);
  if (error) return true;
  // Receipts that arrived between submit_sm_resp and this commit were parked as orphans.
  const { rows: orphans } = await sql.query<{
    bind: string;
    smsc_message_id: string;
    state: PartFinalState;
    stat: string | null;
    err: string | null;
  }>(
    `DELETE FROM "${SCHEMA}"."orphan_receipt" o
      USING "${SCHEMA}"."submitted_part" p
      WHERE p."message_id" = $1 AND o."bind" = p."bind" AND o."smsc_message_id" = p."smsc_message_id"
      RETURNING o."bind", o."smsc_message_id", o."state", o."stat", o."err"`,
    [message.messageId],
  );
  for (const orphan of orphans) {
    await applyReceipt(sql, orphan.bind, {
      smscMessageId: orphan.smsc_message_id,
      state: orphan.state,
      stat: orphan.stat,
      err: orphan.err,
    });
  }
  return true;
}

/**
 * Marks the part a receipt is about and, once every part of its message has a final state,
 * enqueues the message's one final status. A receipt for a part not (yet) recorded is parked.
 * Returns what happened, for metrics and tests.
 */
export async function applyReceipt(
  sql: Sql,
  scope: string,
  receipt: DeliveryReceipt,
): Promise<'applied' | 'orphan' | 'duplicate'> {
  await lockSmscMessage(sql, scope, receipt.smscMessageId);
  const marked = await sql.query<{ message_id: string }>(
    `UPDATE "${SCHEMA}"."submitted_part"
        SET "final_state" = $3, "receipt_stat" = $4, "receipt_err" = $5
      WHERE "bind" = $1 AND "smsc_message_id" = $2 AND "final_state" IS NULL
      RETURNING "message_id"`,
    [scope, receipt.smscMessageId, receipt.state, receipt.stat, receipt.err],
  );
  const messageId = marked.rows[0]?.message_id;
  if (!messageId) {
    const known = await sql.query(
      `SELECT 1 FROM "${SCHEMA}"."submitted_part" WHERE "bind" = $1 AND "smsc_message_id" = $2`,
      [scope, receipt.smscMessageId],
    );
    if (known.rows.length > 0) return 'duplicate';
    await sql.query(
      `INSERT INTO "${SCHEMA}"."orphan_receipt" ("bind", "smsc_message_id", "state", "stat", "err")
       VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
      [scope, receipt.smscMessageId, receipt.state, receipt.stat, receipt.err],
    );
    return 'orphan';
  }
  await publishFinalStatusIfComplete(sql, messageId);
  return 'applied';
}

async function publishFinalStatusIfComplete(sql: Sql, messageId: string): Promise<void> {
  const { rows: submissions } = await sql.query<{
    account_id: string;
    source: SmsStatus['source'];
    parts: number;
    smsc_message_ids: string[];
  }>(
    `SELECT "account_id", "source", "parts", "smsc_message_ids" FROM "${SCHEMA}"."submission"
      WHERE "message_id" = $1 AND "state" = 'submitted' AND "final_state" IS NULL
      FOR UPDATE`,
    [messageId],
  );
  const submission = submissions[0];
  if (!submission) return;
  const { rows: parts } = await sql.query<{
    final_state: PartFinalState | null;
    receipt_stat: string | null;
    receipt_err: string | null;
  }>(
    `SELECT "final_state", "receipt_stat", "receipt_err" FROM "${SCHEMA}"."submitted_part"
      WHERE "message_id" = $1 ORDER BY "part_no"`,
    [messageId],
  );
  const finals = parts.flatMap((part) => (part.final_state ? [part.final_state] : []));
  if (finals.length < submission.parts) return;
  const state = combinePartStates(finals);
  const culprit = parts.find((part) => part.final_state === state && state !== 'delivered');
  await sql.query(
    `UPDATE "${SCHEMA}"."submission" SET "final_state" = $2 WHERE "message_id" = $1`,
    [messageId, state],
  );
  await enqueueOutbox(sql, SCHEMA, Topics.smsStatus, [
    statusEvent({
      messageId,
      accountId: submission.account_id,
      source: submission.source,
      state,
      smscMessageIds: submission.smsc_message_ids,
      parts: submission.parts,
      at: new Date().toISOString(),
      ...(culprit
        ? {
            error: {
              ...(culprit.receipt_stat ? { receiptStat: culprit.receipt_stat } : {}),
              ...(culprit.receipt_err ? { receiptError: culprit.receipt_err } : {}),
              description: `delivery receipt: ${culprit.receipt_stat ?? state}`,
            },
          }
        : {}),
    }),
  ]);
}

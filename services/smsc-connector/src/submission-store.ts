import { enqueueOutbox } from '@msg/bus';
import { type SmsOutbound, type SmsStatus, Topics } from '@msg/contracts';
import type { Sql } from '@msg/db';
import type { PartFinalState } from './delivery-receipt.js';
import { applyReceipts } from './receipt-store.js';
import { SMSC_CONNECTOR_SCHEMA } from './schema.js';
import { jsonRows, lockSmscMessages, statusEvent } from './store-sql.js';

export interface AcceptedPart {
  partNo: number;
  /** SmppBind.scope of the bind that got the submit_sm_resp. */
  scope: string;
  smscMessageId: string;
  /** When its submit_sm_resp arrived: receipts parked earlier than that are not about it. */
  acceptedAt: Date;
}

/**
 * A parked receipt is taken by a new part only if it arrived at most this long before the part
 * was accepted (same clock; receipts may come on another session before the response). Older
 * ones are stale duplicates about an earlier message that had the same (reused) SMSC id.
 */
const ORPHAN_BEFORE_ACCEPT_MS = 10_000;

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

/** How long a submitted message waits for its receipts before it is expired. */
export interface ReceiptWaitPolicy {
  /** The validity of a message whose event names none (the SMSC's own default applies to it). */
  defaultValidityMinutes: number;
  /** Added to the validity: the SMSC's last receipt may still be on its way when it ends. */
  graceMinutes: number;
}

/** A submit whose SMSC message id was still mapped to another message (the SMSC reused it). */
export interface ReusedSmscMessageId {
  scope: string;
  smscMessageId: string;
  messageId: string;
  previousMessageId: string;
  /** null: the previous message still waited for this part's receipt; it will expire. */
  previousFinalState: PartFinalState | null;
}

export interface RecordedSubmission {
  /** False when the message id was recorded before (a redelivery): nothing was written. */
  recorded: boolean;
  reused: ReusedSmscMessageId[];
}

/** When to give up on the receipts of a submission: null when none are awaited. */
export function receiptDeadline(
  outcome: SubmissionOutcome,
  policy: ReceiptWaitPolicy,
): Date | null {
  if (outcome.error || !outcome.message.deliveryReport || outcome.accepted.length === 0) {
    return null;
  }
  const minutes =
    (outcome.message.validityMinutes ?? policy.defaultValidityMinutes) + policy.graceMinutes;
  return new Date(outcome.at.getTime() + minutes * 60_000);
}

/** The message ids among `messageIds` that already have a submission (one statement). */
export async function findRecordedSubmissions(
  sql: Sql,
  messageIds: readonly string[],
): Promise<Set<string>> {
  const { rows } = await sql.query<{ message_id: string }>(
    `SELECT "message_id" FROM "${SMSC_CONNECTOR_SCHEMA}"."submission"
      WHERE "message_id" = ANY($1::text[])`,
    [messageIds],
  );
  return new Set(rows.map((row) => row.message_id));
}

/**
 * Records finished submissions and their 'submitted' or 'failed' statuses in the caller's
 * transaction, then applies receipts that overtook them — a handful of multi-row statements for
 * the whole batch. An outcome whose message id is already recorded (another consumer, a
 * redelivery) is skipped: `recorded: false`, nothing published twice.
 *
 * A part whose SMSC message id is still mapped to another message takes the mapping over: the
 * SMSC reused the id (restart, counter wrap), so receipts for it are now about the new message.
 * The previous message, if it still waited for that receipt, never gets it and is expired later.
 */
export async function recordSubmissions(
  sql: Sql,
  outcomes: readonly SubmissionOutcome[],
  policy: ReceiptWaitPolicy,
): Promise<RecordedSubmission[]> {
  // Two outcomes of one message id in a batch (the event published twice): the first counts.
  const firstOf = new Map<string, SubmissionOutcome>();
  for (const outcome of outcomes) {
    if (!firstOf.has(outcome.message.messageId)) firstOf.set(outcome.message.messageId, outcome);
  }
  const candidates = [...firstOf.values()];
  const { rows: inserted } = await sql.query<{ message_id: string }>(
    `INSERT INTO "${SMSC_CONNECTOR_SCHEMA}"."submission"
       ("message_id", "account_id", "source", "parts", "state", "smsc_message_ids", "bind", "error",
        "submitted_at", "expires_at")
     SELECT "message_id", "account_id", "source", "parts", "state", "smsc_message_ids", "bind",
            "error", "submitted_at", "expires_at"
       FROM jsonb_to_recordset($1::jsonb) AS r("message_id" text, "account_id" text, "source" text,
              "parts" int, "state" text, "smsc_message_ids" text[], "bind" text, "error" jsonb,
              "submitted_at" timestamptz, "expires_at" timestamptz)
      ORDER BY "message_id"
     ON CONFLICT ("message_id") DO NOTHING
     RETURNING "message_id"`,
    [
      jsonRows(
        candidates.map((outcome) => ({
          message_id: outcome.message.messageId,
          account_id: outcome.message.accountId,
          source: outcome.message.source,
          parts: outcome.parts,
          state: outcome.error ? 'failed' : 'submitted',
          smsc_message_ids: outcome.accepted.map((part) => part.smscMessageId),
          bind: outcome.bindName,
          error: outcome.error ?? null,
          submitted_at: outcome.at.toISOString(),
          expires_at: receiptDeadline(outcome, policy)?.toISOString() ?? null,
        })),
      ),
    ],
  );
  const recordedIds = new Set(inserted.map((row) => row.message_id));
  const fresh = candidates.filter((outcome) => recordedIds.has(outcome.message.messageId));
  const reused = await recordParts(sql, fresh);
  await enqueueOutbox(
    sql,
    SMSC_CONNECTOR_SCHEMA,
    Topics.smsStatus,
    fresh.map(({ message, accepted, error, parts, at }) =>
      statusEvent({
        messageId: message.messageId,
        accountId: message.accountId,
        source: message.source,
        state: error ? 'failed' : 'submitted',
        smscMessageIds: accepted.map((part) => part.smscMessageId),
        parts,
        at: at.toISOString(),
        ...(error ? { error } : {}),
      }),
    ),
  );
  await applyOrphanReceipts(
    sql,
    fresh.filter((outcome) => !outcome.error).flatMap((outcome) => outcome.accepted),
  );
  return outcomes.map((outcome) => ({
    recorded:
      firstOf.get(outcome.message.messageId) === outcome &&
      recordedIds.has(outcome.message.messageId),
    reused: reused.filter((row) => row.messageId === outcome.message.messageId),
  }));
}

/** Inserts the accepted parts (taking over reused ids) and returns the takeovers. */
async function recordParts(
  sql: Sql,
  outcomes: readonly SubmissionOutcome[],
): Promise<ReusedSmscMessageId[]> {
  // One row per id: an SMSC answering two parts with one id would otherwise fail the statement.
  const parts = new Map<
    string,
    { bind: string; smsc_message_id: string; message_id: string; part_no: number }
  >();
  for (const { message, accepted } of outcomes) {
    for (const part of accepted) {
      parts.set(JSON.stringify([part.scope, part.smscMessageId]), {
        bind: part.scope,
        smsc_message_id: part.smscMessageId,
        message_id: message.messageId,
        part_no: part.partNo,
      });
    }
  }
  if (parts.size === 0) return [];
  const rows = [...parts.values()];
  await lockSmscMessages(
    sql,
    rows.map((row) => ({ scope: row.bind, smscMessageId: row.smsc_message_id })),
  );
  // `previous` reads the rows as they were before this statement (one snapshot for the whole
  // statement): what the upsert replaced.
  const { rows: takenOver } = await sql.query<{
    bind: string;
    smsc_message_id: string;
    message_id: string;
    previous_message_id: string;
    previous_final_state: PartFinalState | null;
  }>(
    `WITH input AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb)
         AS r("bind" text, "smsc_message_id" text, "message_id" text, "part_no" int)
     ), previous AS (
       SELECT p."bind", p."smsc_message_id", p."message_id", p."final_state"
         FROM "${SMSC_CONNECTOR_SCHEMA}"."submitted_part" p
         JOIN input i USING ("bind", "smsc_message_id")
     ), written AS (
       INSERT INTO "${SMSC_CONNECTOR_SCHEMA}"."submitted_part"
         ("bind", "smsc_message_id", "message_id", "part_no")
       SELECT "bind", "smsc_message_id", "message_id", "part_no" FROM input
        ORDER BY "bind", "smsc_message_id"
       ON CONFLICT ("bind", "smsc_message_id") DO UPDATE
          SET "message_id" = excluded."message_id", "part_no" = excluded."part_no",
              "final_state" = NULL, "receipt_stat" = NULL, "receipt_err" = NULL
        WHERE "submitted_part"."message_id" <> excluded."message_id"
       RETURNING "bind", "smsc_message_id", "message_id"
     )
     SELECT w."bind", w."smsc_message_id", w."message_id",
            pr."message_id" AS "previous_message_id", pr."final_state" AS "previous_final_state"
       FROM written w JOIN previous pr USING ("bind", "smsc_message_id")`,
    [jsonRows(rows)],
  );
  return takenOver.map((row) => ({
    scope: row.bind,
    smscMessageId: row.smsc_message_id,
    messageId: row.message_id,
    previousMessageId: row.previous_message_id,
    previousFinalState: row.previous_final_state,
  }));
}

/** Receipts that arrived between submit_sm_resp and this commit were parked as orphans. */
async function applyOrphanReceipts(sql: Sql, parts: readonly AcceptedPart[]): Promise<void> {
  if (parts.length === 0) return;
  const { rows: orphans } = await sql.query<{
    bind: string;
    smsc_message_id: string;
    state: PartFinalState;
    stat: string | null;
    err: string | null;
  }>(
    `DELETE FROM "${SMSC_CONNECTOR_SCHEMA}"."orphan_receipt" o
      USING jsonb_to_recordset($1::jsonb) AS p("bind" text, "smsc_message_id" text, "not_before" timestamptz)
      WHERE o."bind" = p."bind" AND o."smsc_message_id" = p."smsc_message_id"
        AND o."received_at" >= p."not_before"
      RETURNING o."bind", o."smsc_message_id", o."state", o."stat", o."err"`,
    [
      jsonRows(
        parts.map((part) => ({
          bind: part.scope,
          smsc_message_id: part.smscMessageId,
          not_before: new Date(part.acceptedAt.getTime() - ORPHAN_BEFORE_ACCEPT_MS).toISOString(),
        })),
      ),
    ],
  );
  await applyReceipts(
    sql,
    orphans.map((orphan) => ({
      scope: orphan.bind,
      receipt: {
        smscMessageId: orphan.smsc_message_id,
        state: orphan.state,
        stat: orphan.stat,
        err: orphan.err,
      },
    })),
  );
}

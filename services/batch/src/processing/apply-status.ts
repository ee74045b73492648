import type { SmsStatus } from '@msg/contracts';
import { type Sql, withTransaction } from '@msg/db';
import type pg from 'pg';
import {
  BATCH_COLUMNS,
  BATCH_TABLE,
  type BatchRow,
  batchById,
  MESSAGE_TABLE,
} from '../batches/batch-row.js';
import { completeIfDecided } from './complete-batch.js';

/** The status consumer's consumer group. */
export const STATUS_CONSUMER = 'batch-status';

/** 'already-decided' is also what a redelivered report is: its message was decided by it. */
export type StatusOutcome = 'applied' | 'already-decided' | 'unknown-message';

/** A message a report decides, as one row of the grouped UPDATE. */
interface Decision {
  seq: number;
  status: 'submitted' | 'failed';
  error: string | null;
  changeSeq: string;
  submittedAt: Date;
}

/** Applies one status report; see applyStatusReports. */
export async function applyStatusReport(
  pool: pg.Pool,
  report: SmsStatus,
  retentionMs: number,
): Promise<StatusOutcome> {
  const [outcome] = await withTransaction(pool, (sql) =>
    applyStatusReports(sql, [report], retentionMs),
  );
  if (!outcome) throw new Error('applyStatusReports answered no outcome');
  return outcome;
}

/**
 * Applies status reports to their batch messages in the caller's transaction: the first report
 * that decides a queued message (submitted — or delivered or expired when the submit report never
 * came — or failed) sets its submission status, gives it the batch's next change_seq and moves
 * the counters, under the batch row's lock; anything later for the same message is ignored. A
 * batch completes when its last undecided message is decided. That rule is also the dedupe: a
 * redelivered report finds its message decided (by itself), so no event id is claimed (which
 * would be two more row writes per recipient).
 *
 * Many reports share one transaction and a few statements per batch (not ~9 round trips each):
 * at a million recipients the status consumer must keep up with the bind's submit rate, and every
 * report of a batch waits for the same row lock anyway. Batches are locked in id order, so two
 * groups never deadlock. One outcome per report, in their order.
 */
export async function applyStatusReports(
  sql: Sql,
  reports: readonly SmsStatus[],
  retentionMs: number,
): Promise<StatusOutcome[]> {
  // A report whose message no batch has stays 'unknown-message'.
  const outcomes: StatusOutcome[] = reports.map(() => 'unknown-message');
  const found = await sql.query<{ transaction_id: string; batch_id: string }>(
    `SELECT transaction_id::text AS transaction_id, batch_id
       FROM ${MESSAGE_TABLE} WHERE transaction_id = ANY($1::uuid[])`,
    [[...new Set(reports.map((r) => r.messageId))]],
  );
  const batchOf = new Map(found.rows.map((row) => [row.transaction_id, row.batch_id]));
  const byBatch = new Map<string, { report: SmsStatus; index: number }[]>();
  for (const [index, report] of reports.entries()) {
    const batchId = batchOf.get(report.messageId);
    if (!batchId) continue;
    const mine = byBatch.get(batchId);
    if (mine) mine.push({ report, index });
    else byBatch.set(batchId, [{ report, index }]);
  }
  for (const batchId of [...byBatch.keys()].sort()) {
    const mine = byBatch.get(batchId) ?? [];
    for (const [index, outcome] of await applyToBatch(sql, batchId, mine, retentionMs)) {
      outcomes[index] = outcome;
    }
  }
  return outcomes;
}

/** The reports about one batch's messages, under its row lock: [report index, outcome] pairs. */
async function applyToBatch(
  sql: Sql,
  batchId: string,
  reports: readonly { report: SmsStatus; index: number }[],
  retentionMs: number,
): Promise<[number, StatusOutcome][]> {
  // The messages' statuses only change under the batch's lock: read them holding it.
  const batch = await batchById(sql, batchId, { lock: true });
  if (!batch) return reports.map((r) => [r.index, 'unknown-message']);
  const current = await sql.query<{ transaction_id: string; seq: number; status: string }>(
    `SELECT transaction_id::text AS transaction_id, seq, status FROM ${MESSAGE_TABLE}
      WHERE batch_id = $1 AND transaction_id = ANY($2::uuid[])`,
    [batchId, reports.map((r) => r.report.messageId)],
  );
  const messages = new Map(current.rows.map((row) => [row.transaction_id, row]));
  const outcomes: [number, StatusOutcome][] = [];
  const decisions: Decision[] = [];
  let submitted = 0;
  let failed = 0;
  for (const { index, report } of reports) {
    const message = messages.get(report.messageId);
    if (!message || report.accountId !== batch.account_id) {
      outcomes.push([index, 'unknown-message']);
    } else if (message.status !== 'queued') {
      outcomes.push([index, 'already-decided']);
    } else {
      const isFailure = report.state === 'failed';
      message.status = isFailure ? 'failed' : 'submitted';
      if (isFailure) failed++;
      else submitted++;
      decisions.push({
        seq: message.seq,
        status: isFailure ? 'failed' : 'submitted',
        error: isFailure ? (report.error?.description ?? 'failed') : null,
        changeSeq: String(BigInt(batch.last_change_seq) + BigInt(decisions.length + 1)),
        submittedAt: new Date(report.at),
      });
      outcomes.push([index, 'applied']);
    }
  }
  if (decisions.length > 0) await decide(sql, batch, decisions, submitted, failed, retentionMs);
  return outcomes;
}

async function decide(
  sql: Sql,
  batch: BatchRow,
  decisions: readonly Decision[],
  submitted: number,
  failed: number,
  retentionMs: number,
): Promise<void> {
  await sql.query(
    `UPDATE ${MESSAGE_TABLE} AS m
        SET status = d.status, error = d.error, change_seq = d.change_seq,
            submitted_at = d.submitted_at
       FROM unnest($2::int[], $3::text[], $4::text[], $5::bigint[], $6::timestamptz[])
            AS d(seq, status, error, change_seq, submitted_at)
      WHERE m.batch_id = $1 AND m.seq = d.seq`,
    [
      batch.id,
      decisions.map((d) => d.seq),
      decisions.map((d) => d.status),
      decisions.map((d) => d.error),
      decisions.map((d) => d.changeSeq),
      decisions.map((d) => d.submittedAt.toISOString()),
    ],
  );
  const row = await sql.query<BatchRow & Record<string, unknown>>(
    `UPDATE ${BATCH_TABLE}
        SET last_change_seq = last_change_seq + $2,
            submitted_messages = submitted_messages + $3,
            failed_messages = failed_messages + $4
      WHERE id = $1
      RETURNING ${BATCH_COLUMNS}`,
    [batch.id, decisions.length, submitted, failed],
  );
  const updated = row.rows[0];
  if (!updated) throw new Error('locked batch row vanished');
  await completeIfDecided(sql, updated, retentionMs);
}

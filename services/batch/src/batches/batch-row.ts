import { isUuid, type Sql } from '@msg/db';

/** The Postgres schema of the batch service's tables (and its outbox). */
export const BATCH_SCHEMA = 'batch';

export const BATCH_STATUSES = [
  'created',
  'scheduled',
  'processing',
  'completed',
  'canceled',
  'failed',
] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];

/** Statuses a batch never leaves; retention counts from the moment it reaches one. */
export const FINAL_STATUSES: readonly BatchStatus[] = ['completed', 'canceled', 'failed'];

/** A row of batch.batch as `SELECT ${BATCH_COLUMNS}` reads it (bigints arrive as strings). */
export interface BatchRow {
  id: string;
  account_id: string;
  external_batch_id: string | null;
  status: BatchStatus;
  sender_id: string;
  message_template: string;
  validity_minutes: number | null;
  delivery_report: boolean;
  dry_run: boolean;
  callback_url: string | null;
  callback_token: string | null;
  created_at: Date;
  scheduled_at: Date | null;
  started_at: Date | null;
  completed_at: Date | null;
  total_messages: number;
  submitted_messages: number;
  failed_messages: number;
  total_parts: number;
  expanded_through: number;
  next_chunk_at: Date | null;
  last_change_seq: string;
  notified_change_seq: string;
  progress_at: Date | null;
  final_event_queued: boolean;
  purge_after: Date | null;
}

export const BATCH_TABLE = `"${BATCH_SCHEMA}"."batch"`;
export const MESSAGE_TABLE = `"${BATCH_SCHEMA}"."message"`;

export const BATCH_COLUMNS = `id, account_id, external_batch_id, status, sender_id, message_template,
  validity_minutes, delivery_report, dry_run, callback_url, callback_token, created_at,
  scheduled_at, started_at, completed_at, total_messages, submitted_messages, failed_messages,
  total_parts, expanded_through, next_chunk_at, last_change_seq::text AS last_change_seq,
  notified_change_seq::text AS notified_change_seq, progress_at, final_event_queued, purge_after`;

/**
 * One batch of the account, or undefined — another account's batch is as unknown as a missing
 * one. `lock` takes the row lock (FOR UPDATE) for the rest of the caller's transaction.
 */
export async function findBatch(
  sql: Sql,
  accountId: string,
  batchId: string,
  { lock = false } = {},
): Promise<BatchRow | undefined> {
  if (!isUuid(batchId)) return undefined;
  const { rows } = await sql.query<BatchRow & Record<string, unknown>>(
    `SELECT ${BATCH_COLUMNS} FROM ${BATCH_TABLE} WHERE id = $1 AND account_id = $2
     ${lock ? 'FOR UPDATE' : ''}`,
    [batchId, accountId],
  );
  return rows[0];
}

/** The batch by id alone (workers), optionally locked. */
export async function batchById(
  sql: Sql,
  batchId: string,
  { lock = false } = {},
): Promise<BatchRow | undefined> {
  const { rows } = await sql.query<BatchRow & Record<string, unknown>>(
    `SELECT ${BATCH_COLUMNS} FROM ${BATCH_TABLE} WHERE id = $1 ${lock ? 'FOR UPDATE' : ''}`,
    [batchId],
  );
  return rows[0];
}

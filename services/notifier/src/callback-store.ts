import { enqueueOutbox } from '@msg/bus';
import {
  CALLBACK_DEAD_LETTER_EVENT,
  type CallbackDeadLetter,
  type CallbackRequest,
  makeEvent,
  Topics,
} from '@msg/contracts';
import { type Sql, withTransaction } from '@msg/db';
import type pg from 'pg';

export const NOTIFIER_SCHEMA = 'notifier';
const TABLE = `"${NOTIFIER_SCHEMA}"."callback"`;

/** A row of notifier.callback as the delivery loop uses it. */
export interface CallbackRow {
  callback_id: string;
  account_id: string;
  url: string;
  target: string;
  method: 'GET' | 'POST';
  query: Record<string, string> | null;
  body: unknown;
  body_text: string | null;
  headers: Record<string, string> | null;
  retry_every_failure: boolean;
  origin: { service: string; kind: string };
  give_up_at: Date;
  attempts: number;
  last_error: string | null;
  /** Computed when claimed: the horizon passed while it waited. */
  expired: boolean;
}

const COLUMNS = `"callback_id", "account_id", "url", "target", "method", "query", "body", "body_text",
  "headers", "retry_every_failure", "origin", "give_up_at", "attempts", "last_error"`;

/** The URL's origin (scheme://host:port), the key of per-target limits and of the topics. */
export function targetOf(url: string): string {
  return new URL(url).origin;
}

/**
 * Stores a requested callback once: a redelivered event, or another event with the same
 * callbackId, changes nothing. True when this call stored it.
 */
export async function insertCallback(
  sql: Sql,
  request: CallbackRequest,
  horizonMs: number,
): Promise<boolean> {
  const result = await sql.query(
    `INSERT INTO ${TABLE} ("callback_id", "account_id", "url", "target", "method", "query", "body",
       "origin", "give_up_at", "body_text", "headers", "retry_every_failure")
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8::jsonb,
       COALESCE($9::timestamptz, now() + $10 * interval '1 millisecond'), $11, $12::jsonb, $13)
     ON CONFLICT ("callback_id") DO NOTHING`,
    [
      request.callbackId,
      request.accountId,
      request.url,
      targetOf(request.url),
      request.method,
      request.query === undefined ? null : JSON.stringify(request.query),
      request.body === undefined ? null : JSON.stringify(request.body),
      JSON.stringify(request.origin),
      request.giveUpAt ?? null,
      horizonMs,
      request.bodyText ?? null,
      request.headers === undefined ? null : JSON.stringify(request.headers),
      request.retryEveryFailure ?? false,
    ],
  );
  return result.rowCount === 1;
}

export interface ClaimOptions {
  /** Most rows to look at. */
  limit: number;
  /** Targets already at their concurrency limit: their rows stay for later. */
  skipTargets: string[];
  /** How long a claimed row is hidden from other replicas while its attempt runs. */
  leaseMs: number;
  /** Picks the rows this replica has capacity for, in order; the rest stay untouched. */
  select(rows: CallbackRow[]): CallbackRow[];
}

/**
 * Claims due callbacks for this replica. FOR UPDATE SKIP LOCKED lets replicas claim side by side
 * without waiting on each other; pushing next_attempt_at forward by a lease keeps the row from
 * being claimed again while its attempt runs outside any transaction (an HTTP call may take
 * seconds, and should not hold a connection meanwhile). A replica that dies mid-attempt leaves the
 * row to be retried once the lease ends: delivery is at-least-once.
 */
export async function claimDueCallbacks(
  pool: pg.Pool,
  { limit, skipTargets, leaseMs, select }: ClaimOptions,
): Promise<CallbackRow[]> {
  return withTransaction(pool, async (client) => {
    const { rows } = await client.query<CallbackRow>(
      `SELECT ${COLUMNS}, "give_up_at" <= now() AS "expired" FROM ${TABLE}
       WHERE "status" = 'pending' AND "next_attempt_at" <= now() AND NOT ("target" = ANY($2::text[]))
       ORDER BY "next_attempt_at" LIMIT $1 FOR UPDATE SKIP LOCKED`,
      [limit, skipTargets],
    );
    const picked = select(rows);
    if (picked.length > 0) {
      await client.query(
        `UPDATE ${TABLE} SET "next_attempt_at" = now() + $2 * interval '1 millisecond'
         WHERE "callback_id" = ANY($1::text[])`,
        [picked.map((row) => row.callback_id), leaseMs],
      );
    }
    return picked;
  });
}

export async function markDelivered(sql: Sql, callbackId: string): Promise<void> {
  await sql.query(
    `UPDATE ${TABLE} SET "status" = 'delivered', "attempts" = "attempts" + 1, "last_error" = NULL,
       "delivered_at" = now()
     WHERE "callback_id" = $1 AND "status" = 'pending'`,
    [callbackId],
  );
}

export interface FailureOutcome {
  status: 'pending' | 'dead';
  attempts: number;
}

/**
 * Records a failed attempt (attemptMade) or a callback found past its horizon before any new
 * attempt. It is retried after `retryInMs`, unless that is null (not retryable) or would fall
 * after give_up_at: then it is dead, and its dead letter goes into the outbox in the same
 * transaction, so it is published if and only if the row says dead.
 */
export async function recordFailure(
  pool: pg.Pool,
  callbackId: string,
  {
    error,
    retryInMs,
    attemptMade,
  }: { error: string; retryInMs: number | null; attemptMade: boolean },
): Promise<FailureOutcome | undefined> {
  return withTransaction(pool, async (client) => {
    const { rows } = await client.query<DeadRow>(
      `UPDATE ${TABLE} SET
         "attempts" = "attempts" + $2,
         "last_error" = CASE WHEN $2 = 1 THEN $3 ELSE COALESCE("last_error", $3) END,
         "next_attempt_at" = now() + COALESCE($4::bigint, 0) * interval '1 millisecond',
         "status" = CASE
           WHEN $4::bigint IS NULL OR now() + $4::bigint * interval '1 millisecond' > "give_up_at" THEN 'dead'
           ELSE 'pending' END
       WHERE "callback_id" = $1 AND "status" = 'pending'
       RETURNING ${COLUMNS}, "status", now() AS "gave_up_at"`,
      [callbackId, attemptMade ? 1 : 0, error, retryInMs],
    );
    const row = rows[0];
    if (!row) return undefined;
    if (row.status === 'dead') {
      await enqueueOutbox(client, NOTIFIER_SCHEMA, Topics.callbacksDlq, [
        {
          key: row.target,
          value: makeEvent<CallbackDeadLetter>(CALLBACK_DEAD_LETTER_EVENT, deadLetterOf(row), {
            accountId: row.account_id,
          }),
        },
      ]);
    }
    return { status: row.status, attempts: row.attempts };
  });
}

interface DeadRow extends Omit<CallbackRow, 'expired'> {
  status: 'pending' | 'dead';
  gave_up_at: Date;
}

function deadLetterOf(row: DeadRow): CallbackDeadLetter {
  return {
    callbackId: row.callback_id,
    accountId: row.account_id,
    url: row.url,
    method: row.method,
    ...(row.query !== null && { query: row.query }),
    ...(row.body !== null && { body: row.body }),
    ...(row.body_text !== null && { bodyText: row.body_text }),
    ...(row.headers !== null && { headers: row.headers }),
    ...(row.retry_every_failure && { retryEveryFailure: true }),
    giveUpAt: row.give_up_at.toISOString(),
    origin: row.origin,
    attempts: row.attempts,
    lastError: row.last_error ?? 'unknown',
    gaveUpAt: row.gave_up_at.toISOString(),
  };
}

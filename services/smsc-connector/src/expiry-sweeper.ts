import { enqueueOutbox } from '@msg/bus';
import { Topics } from '@msg/contracts';
import { type Sql, withTransaction } from '@msg/db';
import type { Logger } from '@msg/logger';
import type pg from 'pg';
import { SMSC_CONNECTOR_SCHEMA } from './schema.js';
import { type SubmissionStatusRow, statusEvent } from './store-sql.js';

/** Rows claimed per transaction; a sweep repeats until fewer are due. */
const SWEEP_BATCH = 500;

/** Orphan receipts live for the seconds until their submission commits; older ones never will. */
const ORPHAN_MAX_AGE_MINUTES = 60;

export const NO_RECEIPT_DESCRIPTION =
  'no delivery receipt arrived by the end of the validity period';

/**
 * Marks submitted messages whose receipt deadline (`expires_at`) passed as finally 'expired' and
 * enqueues that status, in the caller's transaction. Rows are claimed with FOR UPDATE SKIP
 * LOCKED, so replicas sweeping at once share the work, and a receipt completing the same message
 * at the same moment wins or loses cleanly (its completion check locks and re-reads the row).
 * Returns the message ids expired.
 */
export async function expireOverdueSubmissions(
  sql: Sql,
  { now = new Date(), limit = SWEEP_BATCH }: { now?: Date; limit?: number } = {},
): Promise<string[]> {
  const { rows } = await sql.query<SubmissionStatusRow>(
    `WITH due AS (
       SELECT "message_id" FROM "${SMSC_CONNECTOR_SCHEMA}"."submission"
        WHERE "state" = 'submitted' AND "final_state" IS NULL AND "expires_at" <= $1
        ORDER BY "expires_at"
        LIMIT $2
          FOR UPDATE SKIP LOCKED
     )
     UPDATE "${SMSC_CONNECTOR_SCHEMA}"."submission" s SET "final_state" = 'expired'
       FROM due WHERE s."message_id" = due."message_id"
     RETURNING s."message_id", s."account_id", s."source", s."parts", s."smsc_message_ids"`,
    [now, limit],
  );
  const at = now.toISOString();
  await enqueueOutbox(
    sql,
    SMSC_CONNECTOR_SCHEMA,
    Topics.smsStatus,
    rows.map((row) =>
      statusEvent({
        messageId: row.message_id,
        accountId: row.account_id,
        source: row.source,
        state: 'expired',
        smscMessageIds: row.smsc_message_ids,
        parts: row.parts,
        at,
        error: { description: NO_RECEIPT_DESCRIPTION },
      }),
    ),
  );
  return rows.map((row) => row.message_id);
}

/** Removes parked receipts no submission claimed within the hour (duplicates, lost commits). */
export async function removeStaleOrphans(sql: Sql, now = new Date()): Promise<number> {
  const { rowCount } = await sql.query(
    `DELETE FROM "${SMSC_CONNECTOR_SCHEMA}"."orphan_receipt"
      WHERE "received_at" < $1::timestamptz - make_interval(mins => $2)`,
    [now, ORPHAN_MAX_AGE_MINUTES],
  );
  return rowCount ?? 0;
}

export interface ExpirySweeperOptions {
  pool: pg.Pool;
  intervalMs: number;
  logger: Logger;
  onExpired: (count: number) => void;
}

/**
 * Sweeps every `intervalMs` (a timer is fine here: expiry is minutes late by nature and off the
 * submit path). Returns how to stop it; stopping waits for a sweep under way.
 */
export function startExpirySweeper({
  pool,
  intervalMs,
  logger,
  onExpired,
}: ExpirySweeperOptions): () => Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  let sweeping: Promise<void> = Promise.resolve();
  let stopped = false;

  async function sweep(): Promise<void> {
    try {
      for (;;) {
        const expired = await withTransaction(pool, (client) => expireOverdueSubmissions(client));
        if (expired.length > 0) {
          onExpired(expired.length);
          logger.info('messages expired without a receipt', { count: expired.length });
        }
        if (expired.length < SWEEP_BATCH || stopped) break;
      }
      await removeStaleOrphans(pool);
    } catch (error) {
      logger.warn('expiry sweep failed; retried on the next tick', { error: String(error) });
    }
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(() => {
      sweeping = sweep().finally(schedule);
    }, intervalMs);
    timer.unref();
  }

  schedule();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await sweeping;
  };
}

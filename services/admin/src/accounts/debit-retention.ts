import type pg from 'pg';

/** Most debit records one statement deletes: a long backlog goes in short transactions. */
const PAGE = 10_000;

/**
 * Deletes debit records older than `retentionMs`. A record only makes a retried debit of the same
 * reference free; retries come within minutes (a batch chunk is retried 30 s after a failure), so
 * a retention of days keeps every retry idempotent. Returns how many were deleted.
 */
export async function purgeOldDebits(pool: pg.Pool, retentionMs: number): Promise<number> {
  let deleted = 0;
  for (;;) {
    const { rowCount } = await pool.query(
      `DELETE FROM admin.account_debit
        WHERE ctid IN (SELECT ctid FROM admin.account_debit
                        WHERE created_at < now() - $1::float8 * interval '1 millisecond'
                        LIMIT ${PAGE})`,
      [retentionMs],
    );
    deleted += rowCount ?? 0;
    if ((rowCount ?? 0) < PAGE) return deleted;
  }
}

/**
 * Runs the purge every `everyMs` in this replica (a DELETE by age is safe to run in several at
 * once). Returns the stop function.
 */
export function startDebitPurge(
  pool: pg.Pool,
  {
    retentionMs,
    everyMs,
    onError,
  }: { retentionMs: number; everyMs: number; onError(err: unknown): void },
): () => Promise<void> {
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = purgeOldDebits(pool, retentionMs).catch(onError);
  }, everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}

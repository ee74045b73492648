import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '@msg/logger';
import type { Sql } from '../sql.js';
import { MigrationLockTimeoutError } from './migration-errors.js';

/**
 * The advisory lock key `prisma migrate` itself takes, so this runner and `prisma migrate deploy`
 * (and every replica starting at once) exclude each other. It is one key per database, not per
 * schema: services migrating the same database take turns, each holding it for milliseconds when
 * nothing is pending.
 */
export const MIGRATION_LOCK_KEY = 72707369;

/**
 * Takes the session-level lock on this connection, polling with pg_try_advisory_lock so the wait
 * is bounded and logged. The lock lives as long as the connection: release it with
 * `unlockMigrations`, or destroy the connection.
 */
export async function lockMigrations(
  sql: Sql,
  { timeoutMs, pollMs = 200, logger }: { timeoutMs: number; pollMs?: number; logger: Logger },
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let waiting = false;
  for (;;) {
    const { rows } = await sql.query<{ locked: boolean }>(
      'SELECT pg_try_advisory_lock($1) AS locked',
      [MIGRATION_LOCK_KEY],
    );
    if (rows[0]?.locked) return;
    if (Date.now() >= deadline) throw new MigrationLockTimeoutError(timeoutMs);
    if (!waiting) {
      logger.info('waiting for the migration lock held by another process');
      waiting = true;
    }
    await sleep(pollMs);
  }
}

export async function unlockMigrations(sql: Sql): Promise<void> {
  await sql.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
}

import type { Logger } from '@msg/logger';
import type pg from 'pg';
import { quoteSchema } from '../identifier.js';
import { describeDatabaseError, MigrationFailedError } from './migration-errors.js';
import { type MigrationFile, readMigrationFolders } from './migration-files.js';
import { lockMigrations, unlockMigrations } from './migration-lock.js';
import { planMigrations } from './migration-plan.js';
import {
  migrationsTableDdl,
  readMigrationRows,
  recordFinished,
  recordStarted,
} from './migrations-table.js';

export interface MigrateOptions {
  pool: pg.Pool;
  /** The service's Postgres schema; it holds the service's tables and its _prisma_migrations. */
  schema: string;
  /**
   * Prisma-format migrations folders (`<timestamp>_<name>/migration.sql` each), applied in the
   * order given: the packages' folders (e.g. @msg/bus's OUTBOX_MIGRATIONS_DIR) first, then the
   * service's own. Their migrations share the schema's _prisma_migrations.
   */
  migrationsDirs: readonly string[];
  logger: Logger;
  /** How long to wait for another process's migration to finish. Default 5 minutes. */
  lockTimeoutMs?: number;
}

/**
 * Brings `schema` up to date with `migrationsDirs`, recording each migration in
 * `<schema>._prisma_migrations` exactly as `prisma migrate deploy` would, and returns the names
 * applied now (none when up to date). Each migration runs in its own transaction with
 * `search_path` set to the schema, like Prisma with `?schema=<schema>`.
 *
 * Uses ONE connection throughout: the advisory lock is held by that session.
 */
export async function migrate({
  pool,
  schema,
  migrationsDirs,
  logger,
  lockTimeoutMs = 5 * 60_000,
}: MigrateOptions): Promise<string[]> {
  const quoted = quoteSchema(schema);
  const files = await readMigrationFolders(migrationsDirs);
  const log = logger.child({ schema });

  const client = await pool.connect();
  // Set when the connection may be unusable, or may still hold the lock: destroy it then.
  let broken: Error | undefined;
  try {
    await lockMigrations(client, { timeoutMs: lockTimeoutMs, logger: log });
    try {
      // Under the lock: CREATE ... IF NOT EXISTS is not safe against a concurrent twin.
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoted}`);
      await client.query(migrationsTableDdl(quoted));
      const plan = planMigrations(schema, files, await readMigrationRows(client, quoted));
      if (plan.unknown.length > 0) {
        log.warn('database has migrations this release does not know', { unknown: plan.unknown });
      }
      const applied: string[] = [];
      for (const migration of plan.pending) {
        await applyMigration(client, quoted, schema, migration, log);
        applied.push(migration.name);
      }
      log.info(applied.length > 0 ? 'migrations applied' : 'schema up to date', { applied });
      return applied;
    } finally {
      await unlockMigrations(client).catch((err: unknown) => {
        broken = err instanceof Error ? err : new Error(String(err));
      });
    }
  } finally {
    client.release(broken);
  }
}

async function applyMigration(
  client: pg.PoolClient,
  quoted: string,
  schema: string,
  migration: MigrationFile,
  log: Logger,
): Promise<void> {
  const started = Date.now();
  await client.query('BEGIN');
  try {
    await client.query(`SET LOCAL search_path TO ${quoted}`);
    const id = await recordStarted(client, quoted, migration);
    await client.query(migration.sql);
    await recordFinished(client, quoted, id);
    await client.query('COMMIT');
  } catch (err) {
    throw new MigrationFailedError(
      schema,
      migration.name,
      await recordFailure(client, quoted, migration, err),
      err,
    );
  }
  log.info('migration applied', { migration: migration.name, ms: Date.now() - started });
}

/**
 * Rolls back, then records the failed attempt the way Prisma does, so every replica (and
 * `prisma migrate status`) sees it and stops until an operator resolves it, instead of
 * crash-looping on it. Returns the attempt id, or null when the connection is gone.
 */
async function recordFailure(
  client: pg.PoolClient,
  quoted: string,
  migration: MigrationFile,
  err: unknown,
): Promise<string | null> {
  try {
    await client.query('ROLLBACK');
    return await recordStarted(client, quoted, migration, describeDatabaseError(err));
  } catch {
    return null;
  }
}

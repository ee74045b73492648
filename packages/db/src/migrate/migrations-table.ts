import { randomUUID } from 'node:crypto';
import type { Sql } from '../sql.js';

/**
 * Prisma's own DDL for its history table (schema engine, postgres flavour), so `prisma migrate
 * deploy` and `prisma migrate status` read the rows this runner writes and the other way round.
 * Prisma keeps the table in the connection's schema, i.e. the service's schema (`?schema=admin`).
 */
export function migrationsTableDdl(quotedSchema: string): string {
  return `CREATE TABLE IF NOT EXISTS ${quotedSchema}."_prisma_migrations" (
    id                      VARCHAR(36) PRIMARY KEY NOT NULL,
    checksum                VARCHAR(64) NOT NULL,
    finished_at             TIMESTAMPTZ,
    migration_name          VARCHAR(255) NOT NULL,
    logs                    TEXT,
    rolled_back_at          TIMESTAMPTZ,
    started_at              TIMESTAMPTZ NOT NULL DEFAULT now(),
    applied_steps_count     INTEGER NOT NULL DEFAULT 0
)`;
}

// A type alias, not an interface: Sql.query's row type must be indexable.
export type MigrationRow = {
  id: string;
  checksum: string;
  migration_name: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
  logs: string | null;
};

export async function readMigrationRows(sql: Sql, quotedSchema: string): Promise<MigrationRow[]> {
  const { rows } = await sql.query<MigrationRow>(
    `SELECT id, checksum, migration_name, finished_at, rolled_back_at, logs
       FROM ${quotedSchema}."_prisma_migrations" ORDER BY started_at, migration_name`,
  );
  return rows;
}

/**
 * Inserts the row of an attempt, as Prisma does when it starts one. Inside the migration's
 * transaction it becomes visible only together with the migration's changes.
 */
export async function recordStarted(
  sql: Sql,
  quotedSchema: string,
  migration: { name: string; checksum: string },
  logs: string | null = null,
): Promise<string> {
  const id = randomUUID();
  await sql.query(
    `INSERT INTO ${quotedSchema}."_prisma_migrations"
       (id, checksum, started_at, migration_name, logs, applied_steps_count)
     VALUES ($1, $2, now(), $3, $4, 0)`,
    [id, migration.checksum, migration.name, logs],
  );
  return id;
}

/** Prisma counts one step per migration script and stamps finished_at when it is done. */
export async function recordFinished(sql: Sql, quotedSchema: string, id: string): Promise<void> {
  await sql.query(
    `UPDATE ${quotedSchema}."_prisma_migrations"
        SET applied_steps_count = applied_steps_count + 1, finished_at = now()
      WHERE id = $1`,
    [id],
  );
}

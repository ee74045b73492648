import { createHash } from 'node:crypto';
import type pg from 'pg';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { migrate } from '../src/migrate/migrate.js';
import {
  MigrationChecksumError,
  MigrationFailedError,
  PreviousMigrationFailedError,
} from '../src/migrate/migration-errors.js';
import { tempMigrationsDir } from './support/migrations-dir.js';
import { describeOnEachBackend } from './support/test-database.js';
import { testLogger } from './support/test-logger.js';

const INIT = '20250101000000_init';
const SECOND = '20250201000000_add_note';
// Unqualified names: they land in the migrated schema only if migrate() sets search_path to it.
const INIT_SQL = 'CREATE TABLE widget (id INTEGER PRIMARY KEY, name TEXT NOT NULL);\n';
const SECOND_SQL = 'ALTER TABLE widget ADD COLUMN note TEXT;\n';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describeOnEachBackend('migrate', (db) => {
  let migrations: Awaited<ReturnType<typeof tempMigrationsDir>>;
  let schema: string;
  const { logger, lines } = testLogger();

  beforeEach(async () => {
    migrations = await tempMigrationsDir();
    schema = db.uniqueSchema('m');
    await migrations.write(INIT, INIT_SQL);
    await migrations.write(SECOND, SECOND_SQL);
  });

  afterEach(async () => {
    await migrations.remove();
    await db.pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  });

  const run = (pool: pg.Pool = db.pool) =>
    migrate({ pool, schema, migrationsDirs: [migrations.dir], logger });

  async function historyRows() {
    const { rows } = await db.pool.query<{
      id: string;
      checksum: string;
      migration_name: string;
      finished_at: Date | null;
      rolled_back_at: Date | null;
      logs: string | null;
      applied_steps_count: number;
    }>(`SELECT * FROM "${schema}"."_prisma_migrations" ORDER BY started_at, migration_name`);
    return rows;
  }

  async function tableExists(table: string) {
    const { rows } = await db.pool.query<{ oid: string | null }>('SELECT to_regclass($1) AS oid', [
      `"${schema}"."${table}"`,
    ]);
    return rows[0]?.oid !== null;
  }

  it('when the schema is new, then it creates it and applies every migration in order', async () => {
    expect(await run()).toEqual([INIT, SECOND]);

    expect(await tableExists('widget')).toBe(true);
    const { rows } = await db.pool.query(`SELECT id, name, note FROM "${schema}".widget`);
    expect(rows).toEqual([]);
  });

  it('when migrations are applied, then they are recorded exactly as prisma migrate records them', async () => {
    await run();

    const rows = await historyRows();
    expect(rows.map((row) => row.migration_name)).toEqual([INIT, SECOND]);
    for (const row of rows) {
      expect(row.id).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(row.rolled_back_at).toBeNull();
      expect(row.logs).toBeNull();
      expect(row.applied_steps_count).toBe(1);
    }
    expect(rows.map((row) => row.checksum)).toEqual([sha256(INIT_SQL), sha256(SECOND_SQL)]);

    // Prisma's own DDL for the table, column by column.
    const { rows: columns } = await db.pool.query(
      `SELECT column_name, data_type, character_maximum_length AS length, is_nullable, column_default
         FROM information_schema.columns
        WHERE table_schema = $1 AND table_name = '_prisma_migrations' ORDER BY ordinal_position`,
      [schema],
    );
    expect(columns).toEqual([
      col('id', 'character varying', 36, 'NO'),
      col('checksum', 'character varying', 64, 'NO'),
      col('finished_at', 'timestamp with time zone', null, 'YES'),
      col('migration_name', 'character varying', 255, 'NO'),
      col('logs', 'text', null, 'YES'),
      col('rolled_back_at', 'timestamp with time zone', null, 'YES'),
      col('started_at', 'timestamp with time zone', null, 'NO', 'now()'),
      col('applied_steps_count', 'integer', null, 'NO', '0'),
    ]);
  });

  it('when migrating twice, then the second run applies and records nothing', async () => {
    await run();
    expect(await run()).toEqual([]);
    expect(await historyRows()).toHaveLength(2);
    expect(lines().some((line) => line.message === 'schema up to date')).toBe(true);
  });

  it('when a migration is added later, then only the new one is applied', async () => {
    await run();
    await migrations.write(
      '20250301000000_third',
      'CREATE INDEX widget_name_idx ON widget (name);',
    );
    expect(await run()).toEqual(['20250301000000_third']);
  });

  it('when an applied migration file changed, then it refuses and applies nothing more', async () => {
    await migrations.remove();
    migrations = await tempMigrationsDir();
    await migrations.write(INIT, INIT_SQL);
    await run();
    await migrations.write(INIT, `${INIT_SQL}-- edited after it was applied\n`);
    await migrations.write(SECOND, SECOND_SQL);

    const failure = run();
    await expect(failure).rejects.toThrow(MigrationChecksumError);
    await expect(failure).rejects.toThrow(INIT);
    expect((await historyRows()).map((row) => row.migration_name)).toEqual([INIT]);
    const { rows } = await db.pool.query(
      `SELECT 1 FROM information_schema.columns WHERE table_schema = $1 AND column_name = 'note'`,
      [schema],
    );
    expect(rows).toEqual([]);
  });

  it('when a migration fails, then none of it remains, the failure is recorded and blocks later runs until rolled back', async () => {
    const broken = '20250301000000_broken';
    await migrations.write(
      broken,
      'CREATE TABLE half (id INTEGER);\nSELECT * FROM no_such_table;\n',
    );

    const failure = run();
    await expect(failure).rejects.toThrow(MigrationFailedError);
    await expect(failure).rejects.toThrow(/no_such_table/);
    expect(await tableExists('half')).toBe(false);
    const failed = (await historyRows()).find((row) => row.migration_name === broken);
    expect(failed).toMatchObject({
      finished_at: null,
      rolled_back_at: null,
      applied_steps_count: 0,
    });
    expect(failed?.logs).toMatch(/no_such_table.*42P01/);

    await expect(run()).rejects.toThrow(PreviousMigrationFailedError);

    // The operator fixes the migration and marks the attempt rolled back (prisma migrate resolve).
    await migrations.write(broken, 'CREATE TABLE half (id INTEGER);\n');
    await db.pool.query(
      `UPDATE "${schema}"."_prisma_migrations" SET rolled_back_at = now() WHERE id = $1`,
      [failed?.id],
    );
    expect(await run()).toEqual([broken]);
    expect(await tableExists('half')).toBe(true);
  });

  it('when two replicas migrate at once, then each migration is applied exactly once', async () => {
    // Slow enough that the second replica arrives while the first holds the lock.
    await migrations.write(INIT, `SELECT pg_sleep(0.3);\n${INIT_SQL}`);
    const other = db.openAnotherPool();

    const [first, second] = await Promise.all([run(db.pool), run(other)]);

    expect([...first, ...second].sort()).toEqual([INIT, SECOND]);
    expect(first.length === 0 || second.length === 0).toBe(true);
    expect((await historyRows()).map((row) => row.migration_name)).toEqual([INIT, SECOND]);
    expect(
      lines().some(
        (line) => line.message === 'waiting for the migration lock held by another process',
      ),
    ).toBe(true);
  });
});

function col(
  column_name: string,
  data_type: string,
  length: number | null,
  is_nullable: string,
  column_default: string | null = null,
) {
  return { column_name, data_type, length, is_nullable, column_default };
}

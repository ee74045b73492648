import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { migrationChecksum } from './checksum.js';
import { MigrationsDirectoryError } from './migration-errors.js';

/** One folder of Prisma's migrations directory: `<timestamp>_<name>/migration.sql`. */
export interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

/**
 * Reads every migration folder in name order (their timestamp prefix makes that creation order,
 * as `prisma migrate` sorts them). Files beside the folders (migration_lock.toml) are ignored.
 */
export async function readMigrationFiles(migrationsDir: string): Promise<MigrationFile[]> {
  let entries: { name: string; isDirectory(): boolean }[];
  try {
    entries = await readdir(migrationsDir, { withFileTypes: true });
  } catch (err) {
    throw new MigrationsDirectoryError(
      `cannot read migrations directory ${migrationsDir}: ${err instanceof Error ? err.message : err}`,
    );
  }
  const names = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return Promise.all(
    names.map(async (name) => {
      const path = join(migrationsDir, name, 'migration.sql');
      let sql: string;
      try {
        sql = await readFile(path, 'utf8');
      } catch {
        // An empty folder is usually a leftover from switching branches; applying around it
        // would silently skip a step, so stop and say which one.
        throw new MigrationsDirectoryError(`migration folder ${name} has no readable ${path}`);
      }
      return { name, sql, checksum: migrationChecksum(sql) };
    }),
  );
}

import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { migrationChecksum } from './checksum.js';
import { MigrationsDirectoryError } from './migration-errors.js';

/** One folder of Prisma's migrations directory: `<timestamp>_<name>/migration.sql`. */
export interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
  /**
   * Checksums of earlier texts of this migration that databases may have recorded, from the
   * folder's optional `superseded.sha256` (see readSupersededChecksums).
   */
  superseded: string[];
}

/**
 * An applied migration must never change; the one exception is a text that moved into another
 * migration which re-creates it idempotently (the outbox tables moved from every service's first
 * migration into @msg/bus's own). Such a folder lists the checksum of each earlier text in
 * `superseded.sha256`, one per line (`<sha256> <note>`; `#` starts a comment), so a database that
 * applied the earlier text still counts it as applied. Prisma itself ignores the file.
 */
export const SUPERSEDED_FILE = 'superseded.sha256';

function parseSuperseded(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim().split(/\s+/)[0] ?? '')
    .filter((checksum) => checksum !== '');
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
      const superseded = await readFile(join(migrationsDir, name, SUPERSEDED_FILE), 'utf8').then(
        parseSuperseded,
        () => [],
      );
      return { name, sql, checksum: migrationChecksum(sql), superseded };
    }),
  );
}

/**
 * Reads several migrations folders into one ordered list: each folder's migrations in name order,
 * the folders in the order given (packages' tables first, then the service's own). All of them
 * land in one schema and one _prisma_migrations, so a name may appear only once.
 */
export async function readMigrationFolders(dirs: readonly string[]): Promise<MigrationFile[]> {
  if (dirs.length === 0) throw new MigrationsDirectoryError('no migrations directory given');
  const files = (await Promise.all(dirs.map(readMigrationFiles))).flat();
  const seen = new Set<string>();
  for (const file of files) {
    if (seen.has(file.name)) {
      throw new MigrationsDirectoryError(
        `migration ${file.name} appears in more than one of ${dirs.join(', ')}; names must be unique`,
      );
    }
    seen.add(file.name);
  }
  return files;
}

import { checksumMatches } from './checksum.js';
import { MigrationChecksumError, PreviousMigrationFailedError } from './migration-errors.js';
import type { MigrationFile } from './migration-files.js';
import type { MigrationRow } from './migrations-table.js';

export interface MigrationPlan {
  /** Migrations to apply, in name order. */
  pending: MigrationFile[];
  /** Applied migrations with no folder here: a newer release migrated first (rolling deploy). */
  unknown: string[];
}

/**
 * Decides what to apply from the files and the history rows, by Prisma's reading of the rows:
 * finished and not rolled back = applied; neither finished nor rolled back = failed (blocks
 * everything); rolled back = as if never attempted.
 */
export function planMigrations(
  schema: string,
  files: MigrationFile[],
  rows: MigrationRow[],
): MigrationPlan {
  const failed = rows.find((row) => row.finished_at === null && row.rolled_back_at === null);
  if (failed) {
    throw new PreviousMigrationFailedError(schema, failed.migration_name, failed.id, failed.logs);
  }
  const applied = rows.filter((row) => row.finished_at !== null && row.rolled_back_at === null);
  const appliedNames = new Set(applied.map((row) => row.migration_name));
  const filesByName = new Map(files.map((file) => [file.name, file]));

  const changed = applied
    .filter((row) => {
      const file = filesByName.get(row.migration_name);
      return (
        file !== undefined &&
        !checksumMatches(file.sql, row.checksum) &&
        !file.superseded.includes(row.checksum)
      );
    })
    .map((row) => row.migration_name);
  if (changed.length > 0) throw new MigrationChecksumError(schema, [...new Set(changed)]);

  return {
    pending: files.filter((file) => !appliedNames.has(file.name)),
    unknown: [...appliedNames].filter((name) => !filesByName.has(name)),
  };
}

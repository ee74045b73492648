import type { Logger } from '@msg/logger';
import type { Pool } from 'pg';
import { type ImportOutcome, importSnapshot } from './import-snapshot.js';
import { type ReadSnapshotOptions, readSnapshotFiles } from './snapshot-files.js';

/** Reads a snapshot directory and imports it (see importSnapshot); logs the outcome. */
export async function importSnapshotDirectory(
  pool: Pool,
  dir: string,
  logger: Logger,
  options: ReadSnapshotOptions = {},
): Promise<ImportOutcome> {
  const files = await readSnapshotFiles(dir, options);
  const outcome = await importSnapshot(pool, files);
  logger.info('registry snapshot import', { snapshotDate: files.snapshotDate, ...outcome });
  return outcome;
}

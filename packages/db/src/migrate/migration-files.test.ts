import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrationChecksum } from './checksum.js';
import { MigrationsDirectoryError } from './migration-errors.js';
import { readMigrationFiles, readMigrationFolders } from './migration-files.js';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'msg-db-migrations-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function addMigration(name: string, sql: string) {
  await mkdir(join(dir, name));
  await writeFile(join(dir, name, 'migration.sql'), sql);
}

describe('readMigrationFiles', () => {
  it('when folders exist, then they come in name order with their sql and checksum', async () => {
    await addMigration('20250201000000_second', 'SELECT 2;');
    await addMigration('20250101000000_init', 'SELECT 1;');
    await writeFile(join(dir, 'migration_lock.toml'), 'provider = "postgresql"\n');

    expect(await readMigrationFiles(dir)).toEqual([
      {
        name: '20250101000000_init',
        sql: 'SELECT 1;',
        checksum: migrationChecksum('SELECT 1;'),
        superseded: [],
      },
      {
        name: '20250201000000_second',
        sql: 'SELECT 2;',
        checksum: migrationChecksum('SELECT 2;'),
        superseded: [],
      },
    ]);
  });

  it('when a folder has no migration.sql, then it fails naming the folder', async () => {
    await addMigration('20250101000000_init', 'SELECT 1;');
    await mkdir(join(dir, '20250201000000_empty'));
    await expect(readMigrationFiles(dir)).rejects.toThrow(MigrationsDirectoryError);
    await expect(readMigrationFiles(dir)).rejects.toThrow('20250201000000_empty');
  });

  it('when the directory does not exist, then it fails naming it', async () => {
    await expect(readMigrationFiles(join(dir, 'missing'))).rejects.toThrow(/missing/);
  });
});

describe('superseded checksums', () => {
  it('when a folder lists earlier checksums, then they are read without notes and comments', async () => {
    await addMigration('20250101000000_init', 'SELECT 1;');
    const old = migrationChecksum('SELECT 0;');
    await writeFile(
      join(dir, '20250101000000_init', 'superseded.sha256'),
      `# texts databases may have recorded\n${old}  before the outbox moved out\n\n`,
    );
    const [init] = await readMigrationFiles(dir);
    expect(init?.superseded).toEqual([old]);
  });
});

describe('readMigrationFolders', () => {
  let other: string;

  beforeEach(async () => {
    other = await mkdtemp(join(tmpdir(), 'msg-db-package-migrations-'));
  });

  afterEach(async () => {
    await rm(other, { recursive: true, force: true });
  });

  it('when given several folders, then their migrations come folder by folder, each in name order', async () => {
    await mkdir(join(other, '20260101000000_package_table'));
    await writeFile(join(other, '20260101000000_package_table', 'migration.sql'), 'SELECT 9;');
    await addMigration('20250201000000_second', 'SELECT 2;');
    await addMigration('20250101000000_init', 'SELECT 1;');

    const names = (await readMigrationFolders([other, dir])).map((file) => file.name);
    expect(names).toEqual([
      '20260101000000_package_table',
      '20250101000000_init',
      '20250201000000_second',
    ]);
  });

  it('when two folders hold a migration of the same name, then it fails naming it', async () => {
    await addMigration('20250101000000_init', 'SELECT 1;');
    await mkdir(join(other, '20250101000000_init'));
    await writeFile(join(other, '20250101000000_init', 'migration.sql'), 'SELECT 1;');
    await expect(readMigrationFolders([other, dir])).rejects.toThrow(
      /20250101000000_init appears in more than one/,
    );
  });
});

import { describe, expect, it } from 'vitest';
import { migrationChecksum } from './checksum.js';
import { MigrationChecksumError, PreviousMigrationFailedError } from './migration-errors.js';
import type { MigrationFile } from './migration-files.js';
import { planMigrations } from './migration-plan.js';
import type { MigrationRow } from './migrations-table.js';

function file(name: string, sql = `-- ${name}`): MigrationFile {
  return { name, sql, checksum: migrationChecksum(sql), superseded: [] };
}

function row(migration: MigrationFile, state: Partial<MigrationRow> = {}): MigrationRow {
  return {
    id: `id-${migration.name}`,
    checksum: migration.checksum,
    migration_name: migration.name,
    finished_at: new Date(),
    rolled_back_at: null,
    logs: null,
    ...state,
  };
}

const init = file('20250101000000_init');
const second = file('20250201000000_second');

describe('planMigrations', () => {
  it('when nothing is recorded, then every migration is pending in order', () => {
    expect(planMigrations('s', [init, second], []).pending.map((m) => m.name)).toEqual([
      init.name,
      second.name,
    ]);
  });

  it('when some are applied, then only the others are pending', () => {
    const plan = planMigrations('s', [init, second], [row(init)]);
    expect(plan.pending.map((m) => m.name)).toEqual([second.name]);
    expect(plan.unknown).toEqual([]);
  });

  it('when an attempt was rolled back, then that migration is pending again', () => {
    const rolledBack = row(init, { finished_at: null, rolled_back_at: new Date() });
    expect(planMigrations('s', [init], [rolledBack]).pending.map((m) => m.name)).toEqual([
      init.name,
    ]);
  });

  it('when an attempt failed and is unresolved, then it refuses and names the attempt', () => {
    const failed = row(second, { finished_at: null, logs: 'syntax error' });
    const plan = () => planMigrations('s', [init, second], [row(init), failed]);
    expect(plan).toThrow(PreviousMigrationFailedError);
    expect(plan).toThrow(/20250201000000_second.*id-20250201000000_second/s);
    expect(plan).toThrow(/syntax error/);
  });

  it('when an applied migration file changed, then it refuses and names it', () => {
    const edited = { ...init, sql: '-- edited', checksum: migrationChecksum('-- edited') };
    expect(() => planMigrations('s', [edited, second], [row(init)])).toThrow(
      MigrationChecksumError,
    );
    expect(() => planMigrations('s', [edited, second], [row(init)])).toThrow(init.name);
  });

  it('when an applied migration recorded a superseded text, then it counts as applied', () => {
    const earlier = { ...init, sql: '-- earlier', checksum: migrationChecksum('-- earlier') };
    const current = { ...init, superseded: [earlier.checksum] };
    const plan = planMigrations('s', [current, second], [row(earlier)]);
    expect(plan.pending.map((m) => m.name)).toEqual([second.name]);
  });

  it('when the recorded text is neither the current nor a superseded one, then it still refuses', () => {
    const current = { ...init, superseded: [migrationChecksum('-- earlier')] };
    const other = { ...init, sql: '-- other', checksum: migrationChecksum('-- other') };
    expect(() => planMigrations('s', [current], [row(other)])).toThrow(MigrationChecksumError);
  });

  it('when the database knows a migration the files do not, then it is reported, not fatal', () => {
    const plan = planMigrations('s', [init], [row(init), row(second)]);
    expect(plan.pending).toEqual([]);
    expect(plan.unknown).toEqual([second.name]);
  });
});

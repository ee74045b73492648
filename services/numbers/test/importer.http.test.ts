import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importSnapshot } from '../src/registry/import-snapshot.js';
import { importSnapshotDirectory } from '../src/registry/importer.js';
import { readSnapshotFiles } from '../src/registry/snapshot-files.js';
import {
  fixture,
  SAMPLE_SNAPSHOT,
  startTestNumbers,
  type TestNumbers,
  testLogger,
} from './support.js';

let t: TestNumbers;
const scratch = mkdtempSync(join(tmpdir(), 'numbers-import-'));
beforeAll(async () => {
  t = await startTestNumbers();
}, 60_000);
afterAll(async () => {
  await t?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

async function tableCounts() {
  const { rows } = await t.pool.query<{ name: string; count: number }>(
    `SELECT 'snapshot' AS name, count(*)::int AS count FROM numbers.snapshot
     UNION ALL SELECT 'service_provider', count(*)::int FROM numbers.service_provider
     UNION ALL SELECT 'number_range', count(*)::int FROM numbers.number_range
     UNION ALL SELECT 'ported_number', count(*)::int FROM numbers.ported_number
     UNION ALL SELECT 'port_history', count(*)::int FROM numbers.port_history`,
  );
  return Object.fromEntries(rows.map((row) => [row.name, row.count]));
}

async function currentSnapshotDate(): Promise<string | undefined> {
  const { rows } = await t.pool.query<{ date: string }>(
    `SELECT to_char(s.snapshot_date, 'YYYY-MM-DD') AS date
       FROM numbers.current_snapshot c JOIN numbers.snapshot s ON s.id = c.snapshot_id`,
  );
  return rows[0]?.date;
}

/** A copy of the sample with one file replaced. */
async function sampleWith(name: string, file: string, content: string): Promise<string> {
  const dir = join(scratch, name);
  await cp(SAMPLE_SNAPSHOT, dir, { recursive: true });
  writeFileSync(join(dir, file), content);
  return dir;
}

describe('pnpm numbers import (importSnapshotDirectory)', () => {
  it('when the same snapshot is imported twice, then nothing changes', async () => {
    const before = await tableCounts();
    const outcome = await importSnapshotDirectory(t.pool, SAMPLE_SNAPSHOT, testLogger);
    expect(outcome.outcome).toBe('unchanged');
    expect(await tableCounts()).toEqual(before);
    expect(before).toMatchObject({ snapshot: 1, service_provider: 8, ported_number: 9 });
  });

  it('when a snapshot has a malformed line, then nothing is imported and the error names the file and line', async () => {
    const before = await tableCounts();
    const dir = await sampleWith(
      'bad-line',
      'ports.csv',
      'number,ported_at,donor_spid,recipient_spid\n46701234567,2026-11-22,001,999\n',
    );
    await expect(
      importSnapshotDirectory(t.pool, dir, testLogger, { snapshotDate: '2026-11-22' }),
    ).rejects.toThrow(/ports\.csv:2: spid 999 is not in providers\.csv/);
    expect(await tableCounts()).toEqual(before);
    expect(await currentSnapshotDate()).toBe('2026-11-21');
  });

  it('when the import fails half-way in the database, then it rolls back whole and readers keep the old snapshot', async () => {
    const before = await tableCounts();
    const files = await readSnapshotFiles(SAMPLE_SNAPSHOT, { snapshotDate: '2026-11-22' });
    // Two rows for one range prefix: the range insert fails after the snapshot and its providers.
    const broken = {
      ...files,
      ranges: [...files.ranges, files.ranges[0] ?? { prefix: '46', holderSpid: '001' }],
    };
    await expect(importSnapshot(t.pool, broken)).rejects.toThrow();
    expect(await tableCounts()).toEqual(before);
    expect(await currentSnapshotDate()).toBe('2026-11-21');
    const acct = await t.publishAccount(t.account());
    expect((await t.get(acct, '/v1/numbers/46701234567')).body.source.as_of).toBe(
      '2026-11-21T00:00:00.000Z',
    );
  });

  it('when a different snapshot is given for a date already imported, then it is refused', async () => {
    const dir = await sampleWith('same-date', 'ranges.csv', 'prefix,holder_spid\n4670,001\n');
    await expect(importSnapshotDirectory(t.pool, dir, testLogger)).rejects.toThrow(
      /already imported/,
    );
  });

  it('when a newer snapshot no longer lists older ports, then the porting history keeps them and new ports appear', async () => {
    const acct = await t.publishAccount(t.account());
    const history = async (digits: string) =>
      (await t.get(acct, `/v1/numbers/${digits}/porting-history`)).body;
    const before = await history('46707654321');
    expect(before.porting_history.ports).toHaveLength(1);

    const outcome = await importSnapshotDirectory(t.pool, fixture('snapshot-2'), testLogger);
    expect(outcome.outcome).toBe('imported');
    expect(await currentSnapshotDate()).toBe('2026-11-22');

    // snapshot-2 lists only the latest port of 46701234567; the two before it stay in history.
    const kept = await history('46701234567');
    expect(kept.porting_history.ports.map((p: { ported_at: string }) => p.ported_at)).toEqual([
      '2024-09-30',
      '2021-06-02',
      '2019-03-14',
    ]);
    expect(kept.source.as_of).toBe('2026-11-22T00:00:00.000Z');
    expect(kept.source.valid_until).toBe('2026-11-23T04:00:00.000Z');

    // A new port: Telia → Telenor on 2026-11-21.
    const moved = await history('46707654321');
    expect(moved.network.service_provider.id).toBe('008');
    expect(moved.porting_history.ports[0]).toMatchObject({
      ported_at: '2026-11-21',
      donor: { id: '001' },
      recipient: { id: '008' },
    });
    // 46709876543 is not in snapshot-2: not ported now, but its port stays in its history.
    const back = await history('46709876543');
    expect(back.portability.ported).toBe(false);
    expect(back.porting_history.ports).toHaveLength(1);

    // Only the current snapshot's rows are kept; the history table keeps everything.
    expect(await tableCounts()).toMatchObject({
      snapshot: 2,
      service_provider: 8,
      port_history: 16,
    });
  });

  it('when an earlier snapshot is imported again after a newer one, then nothing changes', async () => {
    const before = await tableCounts();
    const outcome = await importSnapshotDirectory(t.pool, SAMPLE_SNAPSHOT, testLogger);
    expect(outcome.outcome).toBe('unchanged');
    expect(await tableCounts()).toEqual(before);
    expect(await currentSnapshotDate()).toBe('2026-11-22');
  });

  it('when a snapshot older than the current one is given, then it is refused', async () => {
    await expect(
      importSnapshotDirectory(t.pool, SAMPLE_SNAPSHOT, testLogger, { snapshotDate: '2026-11-20' }),
    ).rejects.toThrow(/newer than 2026-11-20/);
  });
});

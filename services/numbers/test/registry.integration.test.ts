import { randomBytes } from 'node:crypto';
import { createPool } from '@msg/db';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQuota } from '../src/quota.js';
import { importSnapshotDirectory } from '../src/registry/importer.js';
import { createRegistry } from '../src/registry/registry.js';
import { migrateNumbers } from '../src/service.js';
import { fixture, SAMPLE_SNAPSHOT, testLogger } from './support.js';

// Real Postgres (the integration tier): several connections at once.
const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const databaseName = `numbers_it_${randomBytes(4).toString('hex')}`;
let admin: pg.Pool;
let pool: pg.Pool;

beforeAll(async () => {
  // A scratch database per run: the schema name "numbers" is fixed and must not meet another run.
  admin = createPool({ url: adminUrl, max: 1, applicationName: 'numbers-it-admin' });
  await admin.query(`CREATE DATABASE "${databaseName}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${databaseName}`;
  pool = createPool({ url: url.href, max: 12, applicationName: 'numbers-it' });
  await migrateNumbers({ pool, logger: testLogger });
}, 60_000);

afterAll(async () => {
  await pool?.end();
  await admin?.query(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`);
  await admin?.end();
});

describe('registry imports under concurrent readers', () => {
  it('when snapshots are imported while readers look up, then every read sees one whole snapshot', async () => {
    await importSnapshotDirectory(pool, SAMPLE_SNAPSHOT, testLogger);
    const registry = createRegistry(pool);
    // In the sample 46707654321 is served by 001; in snapshot-2 by 008. A half snapshot would
    // show a date with the other provider, or no provider at all.
    const expected: Record<string, string> = {};
    let importing = true;
    const seen: { date: string; provider: string | undefined }[] = [];
    const readers = Array.from({ length: 6 }, async () => {
      while (importing) {
        const answer = await registry.lookup('46707654321');
        if (answer) {
          seen.push({ date: answer.snapshot.snapshotDate, provider: answer.provider?.spid });
        }
      }
    });
    const days = ['2026-11-22', '2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26'];
    for (const [index, day] of days.entries()) {
      const dir = index % 2 === 0 ? fixture('snapshot-2') : SAMPLE_SNAPSHOT;
      expected[day] = index % 2 === 0 ? '008' : '001';
      await importSnapshotDirectory(pool, dir, testLogger, { snapshotDate: day });
    }
    importing = false;
    await Promise.all(readers);
    expected['2026-11-21'] = '001';
    expect(seen.length).toBeGreaterThan(0);
    for (const read of seen) expect(read.provider, read.date).toBe(expected[read.date]);
  }, 60_000);

  it('when two importers run the same snapshot at once, then one imports and the other changes nothing', async () => {
    const outcomes = await Promise.all(
      [1, 2].map(() =>
        importSnapshotDirectory(pool, SAMPLE_SNAPSHOT, testLogger, { snapshotDate: '2026-12-01' }),
      ),
    );
    expect(outcomes.map((o) => o.outcome).sort()).toEqual(['imported', 'unchanged']);
  });
});

describe('monthly quota under concurrency', () => {
  it('when many lookups of one account are counted at once, then exactly the quota succeeds', async () => {
    const quota = createQuota(pool);
    const account = { id: crypto.randomUUID(), numbersMonthlyQuota: 5 };
    const now = new Date('2026-11-21T12:00:00.000Z');
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () => quota.record(account, now)),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    expect(await quota.used(account.id, now)).toBe(5);
  });
});

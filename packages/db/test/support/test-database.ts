import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe } from 'vitest';
import { type EmbeddedPostgres, startEmbeddedPostgres } from '../../src/embedded-postgres.js';
import { createPool } from '../../src/pool.js';

export type BackendKind = 'postgres' | 'embedded';

/**
 * The two databases every integration suite runs on:
 * - postgres: the real server at TEST_DATABASE_URL, in a scratch database created for the test
 *   file and dropped afterwards (service schemas have fixed names like "admin", which must not
 *   meet another test run's);
 * - embedded: a fresh embedded PostgreSQL server (startEmbeddedPostgres, temporary directory),
 *   reached through a pool with its poolOptions, as the embedded platform uses it.
 */
export function describeOnEachBackend(title: string, body: (db: TestDatabase) => void): void {
  for (const kind of ['postgres', 'embedded'] as const) {
    describe(`${title} (${kind})`, () => body(useTestDatabase(kind)));
  }
}

export interface TestDatabase {
  readonly kind: BackendKind;
  readonly url: string;
  /** The file's shared pool. */
  readonly pool: pg.Pool;
  /** Another pool on the same database (other sessions, for locks and concurrency). */
  openAnotherPool(): pg.Pool;
  /** A schema name no other test uses. */
  uniqueSchema(prefix?: string): string;
}

const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

function useTestDatabase(kind: BackendKind): TestDatabase {
  let started: { url: string; pool: pg.Pool; stop(): Promise<void> } | undefined;
  const extraPools: pg.Pool[] = [];

  function current() {
    if (!started) throw new Error('test database not started (use it inside tests or hooks)');
    return started;
  }

  beforeAll(async () => {
    started = kind === 'postgres' ? await scratchDatabase() : await embeddedDatabase();
  });

  afterAll(async () => {
    await Promise.all(extraPools.map((pool) => pool.end()));
    await started?.stop();
  });

  return {
    kind,
    get url() {
      return current().url;
    },
    get pool() {
      return current().pool;
    },
    openAnotherPool() {
      const pool = createPool({ url: current().url, max: 4, applicationName: 'db-test' });
      extraPools.push(pool);
      return pool;
    },
    uniqueSchema(prefix = 't') {
      return `${prefix}_${randomBytes(4).toString('hex')}`;
    },
  };
}

async function scratchDatabase() {
  const name = `msg_db_test_${randomBytes(4).toString('hex')}`;
  const admin = createPool({ url: adminUrl, max: 1, applicationName: 'db-test-admin' });
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const pool = createPool({ url: url.href, max: 4, applicationName: 'db-test' });
  return {
    url: url.href,
    pool,
    async stop() {
      await pool.end();
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    },
  };
}

async function embeddedDatabase() {
  const embedded: EmbeddedPostgres = await startEmbeddedPostgres();
  const pool = createPool({ url: embedded.url, ...embedded.poolOptions });
  return {
    url: embedded.url,
    pool,
    async stop() {
      await pool.end();
      await embedded.stop();
    },
  };
}

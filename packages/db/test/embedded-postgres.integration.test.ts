import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedPostgres, startEmbeddedPostgres } from '../src/embedded-postgres.js';
import { createPool } from '../src/pool.js';

describe('startEmbeddedPostgres', () => {
  let embedded: EmbeddedPostgres;
  let pool: pg.Pool;

  beforeAll(async () => {
    // Generous: on a loaded CI machine pglite-socket notices a closed connection late.
    embedded = await startEmbeddedPostgres({ connectionWaitMs: 2_000 });
    pool = createPool({ url: embedded.url, ...embedded.poolOptions });
  });

  afterAll(async () => {
    await pool.end();
    await embedded.stop();
  });

  it('when started, then it serves Postgres on 127.0.0.1 and an OS-chosen port', async () => {
    expect(embedded.url).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres$/);
    const { rows } = await pool.query<{ version: string }>('SELECT version()');
    expect(rows[0]?.version).toMatch(/PGlite/);
  });

  it('when the pool drops its connection and reconnects at once, then the new one is let in', async () => {
    for (let attempt = 0; attempt < 10; attempt++) {
      const client = await pool.connect();
      client.release(new Error('pretend the connection broke'));
      expect((await pool.query<{ n: number }>('SELECT 1 AS n')).rows).toEqual([{ n: 1 }]);
    }
  });

  it('when a second connection is opened while the first is held, then it is refused with 53300', async () => {
    await pool.query('SELECT 1');
    const second = new pg.Client({ connectionString: embedded.url });
    await expect(second.connect()).rejects.toMatchObject({
      code: '53300',
      message: expect.stringMatching(/one connection at a time/),
    });
  });
});

describe('stopping embedded Postgres', () => {
  it('when a transaction is still open, then stop() completes and the client sees the connection end', async () => {
    const embedded = await startEmbeddedPostgres();
    const pool = createPool({ url: embedded.url, ...embedded.poolOptions });
    const client = await pool.connect();
    const ended = new Promise<void>((resolve) => client.once('error', () => resolve()));
    await client.query('BEGIN');
    await client.query('CREATE TABLE t (v INTEGER)');

    await embedded.stop();

    await ended;
    client.release(true);
    await pool.end();
  });
});

describe('startEmbeddedPostgres with a data directory', () => {
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'msg-db-pglite-'));
  });

  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('when restarted on the same directory, then earlier data is still there', async () => {
    const first = await startEmbeddedPostgres({ dataDir });
    const firstPool = createPool({ url: first.url, ...first.poolOptions });
    await firstPool.query('CREATE TABLE kept (v TEXT); INSERT INTO kept VALUES ($$survives$$)');
    await firstPool.end();
    await first.stop();
    await first.stop();

    const second = await startEmbeddedPostgres({ dataDir });
    const secondPool = createPool({ url: second.url, ...second.poolOptions });
    try {
      expect((await secondPool.query('SELECT v FROM kept')).rows).toEqual([{ v: 'survives' }]);
    } finally {
      await secondPool.end();
      await second.stop();
    }
  });

  it('when the directory and its parents do not exist yet, then they are created and kept', async () => {
    // A fresh clone: `.data/pglite` with no `.data/`.
    const nested = join(dataDir, 'fresh-clone', '.data', 'pglite');
    const embedded = await startEmbeddedPostgres({ dataDir: nested });
    const pool = createPool({ url: embedded.url, ...embedded.poolOptions });
    try {
      expect((await pool.query<{ n: number }>('SELECT 1 AS n')).rows).toEqual([{ n: 1 }]);
    } finally {
      await pool.end();
      await embedded.stop();
    }
    expect((await readdir(nested)).length).toBeGreaterThan(0);
  });
});

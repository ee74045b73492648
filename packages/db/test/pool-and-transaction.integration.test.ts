import { createLogger } from '@msg/logger';
import type pg from 'pg';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createPool } from '../src/pool.js';
import { withTransaction } from '../src/transaction.js';
import { describeOnEachBackend } from './support/test-database.js';

describeOnEachBackend('pool and transactions', (db) => {
  let schema: string;
  let table: string;

  beforeAll(async () => {
    schema = db.uniqueSchema('tx');
    table = `"${schema}".job`;
    await db.pool.query(`CREATE SCHEMA "${schema}"`);
    await db.pool.query(`CREATE TABLE ${table} (id INTEGER PRIMARY KEY, claimed_by TEXT)`);
  });

  afterAll(async () => {
    await db.pool.query(`DROP SCHEMA "${schema}" CASCADE`);
  });

  async function ids(): Promise<number[]> {
    const { rows } = await db.pool.query<{ id: number }>(`SELECT id FROM ${table} ORDER BY id`);
    return rows.map((row) => row.id);
  }

  it('when the work resolves, then its writes are committed and its result returned', async () => {
    const result = await withTransaction(db.pool, async (client) => {
      await client.query(`INSERT INTO ${table} (id) VALUES (1), (2)`);
      return 'done';
    });
    expect(result).toBe('done');
    expect(await ids()).toEqual([1, 2]);
  });

  it('when the work throws, then its writes are rolled back, the error rethrown and the connection returned', async () => {
    const boom = new Error('boom');
    await expect(
      withTransaction(db.pool, async (client) => {
        await client.query(`INSERT INTO ${table} (id) VALUES (3)`);
        throw boom;
      }),
    ).rejects.toBe(boom);

    expect(await ids()).toEqual([1, 2]);
    expect(db.pool.waitingCount).toBe(0);
    expect(db.pool.idleCount).toBe(db.pool.totalCount);
  });

  it('when a statement fails inside, then the transaction is rolled back and the pool still works', async () => {
    await expect(
      withTransaction(db.pool, async (client) => {
        await client.query(`INSERT INTO ${table} (id) VALUES (4)`);
        await client.query(`INSERT INTO ${table} (id) VALUES (1)`);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect(await ids()).toEqual([1, 2]);
  });

  it('when jobs are claimed with FOR UPDATE SKIP LOCKED, then a row locked by one transaction is skipped by another', async () => {
    const claim = (client: pg.PoolClient) =>
      client
        .query<{ id: number }>(
          `SELECT id FROM ${table} WHERE claimed_by IS NULL ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED`,
        )
        .then((result) => result.rows.map((row) => row.id));

    const other = db.openAnotherPool();
    // Two sessions at once: the second must skip the row the first holds.
    let releaseFirst: () => void = () => {};
    const firstHolds = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    let firstClaimed: number[] = [];
    const first = withTransaction(db.pool, async (client) => {
      firstClaimed = await claim(client);
      await firstHolds;
    });
    await expect.poll(() => firstClaimed).toEqual([1]);
    const secondClaimed = await withTransaction(other, claim);
    releaseFirst();
    await first;
    expect(secondClaimed).toEqual([2]);
  });

  it('when a session listens and a notification is sent, then the listener receives it', async () => {
    const client = await db.pool.connect();
    try {
      const received: { channel: string; payload?: string }[] = [];
      client.on('notification', (n) => received.push({ channel: n.channel, payload: n.payload }));
      await client.query('LISTEN db_test_channel');
      await client.query(`SELECT pg_notify('db_test_channel', 'same session')`);
      await db.openAnotherPool().query(`SELECT pg_notify('db_test_channel', 'other session')`);

      await expect
        .poll(() => received)
        .toEqual([
          { channel: 'db_test_channel', payload: 'same session' },
          { channel: 'db_test_channel', payload: 'other session' },
        ]);
      await client.query('UNLISTEN *');
    } finally {
      client.release();
    }
  });

  /** A pool of its own whose warnings are recorded, and the pid of one of its connections. */
  async function loggedPool() {
    const logger = createLogger({ service: 'db-test', level: 'error' });
    const warn = vi.spyOn(logger, 'warn');
    const pool = createPool({ url: db.url, max: 2, logger });
    const client = await pool.connect();
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const terminate = () => db.pool.query('SELECT pg_terminate_backend($1)', [rows[0]?.pid]);
    return { pool, client, warn, terminate };
  }

  it('when the server ends a checked-out connection between queries, then the process goes on and the pool serves the next query', async () => {
    const { pool, client, warn, terminate } = await loggedPool();
    try {
      // (events.once would reject on the very 'error' this is about.)
      const ended = new Promise((resolve) => client.once('end', resolve));
      // No query is running on it, so nothing else receives the error the client emits: before
      // the pool listened on checked-out clients, this was an uncaught exception.
      await terminate();
      await ended;
      expect(warn).toHaveBeenCalledWith('database connection in use failed', {
        err: expect.stringContaining('terminat'),
      });
      client.release(true);

      const after = await pool.query<{ ok: number }>('SELECT 1 AS ok');
      expect(after.rows).toEqual([{ ok: 1 }]);
    } finally {
      await pool.end();
    }
  });

  it('when the server ends an idle connection, then it is reported once, as idle, and the pool serves the next query', async () => {
    const { pool, client, warn, terminate } = await loggedPool();
    try {
      client.release();
      await terminate();
      await vi.waitFor(() => expect(pool.totalCount).toBe(0));

      expect(warn.mock.calls.map(([message]) => message)).toEqual([
        'idle database connection failed',
      ]);
      const after = await pool.query<{ ok: number }>('SELECT 1 AS ok');
      expect(after.rows).toEqual([{ ok: 1 }]);
    } finally {
      await pool.end();
    }
  });
});

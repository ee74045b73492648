import { spawn } from 'node:child_process';
import { access, chmod, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedPostgres, startEmbeddedPostgres } from '../src/embedded-postgres.js';
import { createPool } from '../src/pool.js';
import { withTransaction } from '../src/transaction.js';
import { testLogger } from './support/test-logger.js';

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/** The server's pid from its lock file in `dataDir`, or undefined once it has shut down. */
async function serverPid(dataDir: string): Promise<number | undefined> {
  const text = await readFile(join(dataDir, 'postmaster.pid'), 'utf8').catch(() => undefined);
  return text === undefined ? undefined : Number(text.split('\n')[0]);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(what: string, condition: () => Promise<boolean>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(50);
  }
}

describe('startEmbeddedPostgres', () => {
  let embedded: EmbeddedPostgres;
  let pool: pg.Pool;

  beforeAll(async () => {
    embedded = await startEmbeddedPostgres();
    pool = createPool({ url: embedded.url, ...embedded.poolOptions });
  });

  afterAll(async () => {
    await pool.end();
    await embedded.stop();
  });

  it('when started, then it serves PostgreSQL 18 on 127.0.0.1 and a free port, with a pool of several connections', async () => {
    expect(embedded.url).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres$/);
    expect(embedded.poolOptions.max).toBeGreaterThan(1);
    const { rows } = await pool.query<{ version: string }>('SELECT version()');
    expect(rows[0]?.version).toMatch(/^PostgreSQL 18\./);
  });

  it('when one connection holds a row lock, then another skips that row with SKIP LOCKED', async () => {
    await pool.query('CREATE TABLE job (id INTEGER PRIMARY KEY); INSERT INTO job VALUES (1), (2)');
    await withTransaction(pool, async (first) => {
      const claimed = await first.query(
        'SELECT id FROM job ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED',
      );
      expect(claimed.rows).toEqual([{ id: 1 }]);
      // The pool hands out another connection while the transaction holds the first.
      const other = await pool.query(
        'SELECT id FROM job ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED',
      );
      expect(other.rows).toEqual([{ id: 2 }]);
    });
  });

  it('when one session holds an advisory lock, then another session cannot take it', async () => {
    const holder = await pool.connect();
    try {
      await holder.query('SELECT pg_advisory_lock(42)');
      const { rows } = await pool.query<{ got: boolean }>('SELECT pg_try_advisory_lock(42) AS got');
      expect(rows).toEqual([{ got: false }]);
    } finally {
      await holder.query('SELECT pg_advisory_unlock(42)');
      holder.release();
    }
  });

  it('when a listening connection waits, then a NOTIFY from another connection reaches it', async () => {
    const listener = new pg.Client({ connectionString: embedded.url });
    await listener.connect();
    try {
      const received = new Promise<string | undefined>((resolve) =>
        listener.once('notification', (n) => resolve(n.payload)),
      );
      await listener.query('LISTEN wake');
      await pool.query("SELECT pg_notify('wake', 'hello')");
      expect(await received).toBe('hello');
    } finally {
      await listener.end();
    }
  });

  it('when a statement runs past statement_timeout, then the server cancels it', async () => {
    await expect(
      withTransaction(pool, async (client) => {
        await client.query("SET LOCAL statement_timeout = '100ms'");
        await client.query('SELECT pg_sleep(5)');
      }),
    ).rejects.toMatchObject({ code: '57014' });
  });
});

describe('stopping embedded Postgres', () => {
  it('when a transaction is still open, then stop() completes, the client sees the connection end and the temporary directory is gone', async () => {
    const embedded = await startEmbeddedPostgres();
    const pool = createPool({ url: embedded.url, ...embedded.poolOptions });
    const client = await pool.connect();
    // It may report the end twice: the server's 57P01, then the closed socket.
    const ended = new Promise<void>((resolve) => client.on('error', () => resolve()));
    await client.query('BEGIN');
    const { rows } = await client.query<{ dir: string }>(
      "SELECT current_setting('data_directory') AS dir",
    );
    await client.query('CREATE TABLE t (v INTEGER)');

    await embedded.stop();

    await ended;
    client.release(true);
    await pool.end();
    expect(await exists(rows[0]?.dir ?? '')).toBe(false);
    await embedded.stop();
  });
});

describe('embedded Postgres dying on its own', () => {
  it('when the server is killed behind our back, then the logger says so with its last lines, and stop() still completes', async () => {
    const { logger, lines } = testLogger();
    const embedded = await startEmbeddedPostgres({ logger });
    const pool = createPool({ url: embedded.url, ...embedded.poolOptions });
    const { rows } = await pool.query<{ dir: string }>(
      "SELECT current_setting('data_directory') AS dir",
    );
    const pid = await serverPid(rows[0]?.dir ?? '');
    await pool.end();

    process.kill(pid ?? 0, 'SIGKILL');

    await until('the exit is logged', async () =>
      lines().some((line) => line.message === 'embedded postgres exited'),
    );
    const logged = lines().find((line) => line.message === 'embedded postgres exited');
    expect(logged?.level).toBe('error');
    expect(logged?.log).toMatch(/ready to accept connections/);
    await embedded.stop();
  });
});

describe('startEmbeddedPostgres with a data directory', () => {
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'msg-db-embedded-'));
    // mkdtemp makes it private; as root the server runs as the postgres account, which must
    // reach the directories below.
    await chmod(dataDir, 0o755);
  });

  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('when restarted on the same directory, then earlier data is still there and the server is gone after each stop', async () => {
    const dir = join(dataDir, 'restart');
    const first = await startEmbeddedPostgres({ dataDir: dir });
    const firstPool = createPool({ url: first.url, ...first.poolOptions });
    await firstPool.query('CREATE TABLE kept (v TEXT); INSERT INTO kept VALUES ($$survives$$)');
    const pid = await serverPid(dir);
    await firstPool.end();
    await first.stop();
    await first.stop();
    expect(pid !== undefined && alive(pid)).toBe(false);
    expect(await serverPid(dir)).toBeUndefined();

    const second = await startEmbeddedPostgres({ dataDir: dir });
    const secondPool = createPool({ url: second.url, ...second.poolOptions });
    try {
      expect((await secondPool.query('SELECT v FROM kept')).rows).toEqual([{ v: 'survives' }]);
    } finally {
      await secondPool.end();
      await second.stop();
    }
  });

  it('when the directory and its parents do not exist yet, then they are created and kept', async () => {
    // A fresh clone: `.data/postgres` with no `.data/`.
    const nested = join(dataDir, 'fresh-clone', '.data', 'postgres');
    const embedded = await startEmbeddedPostgres({ dataDir: nested });
    const pool = createPool({ url: embedded.url, ...embedded.poolOptions });
    try {
      expect((await pool.query<{ n: number }>('SELECT 1 AS n')).rows).toEqual([{ n: 1 }]);
    } finally {
      await pool.end();
      await embedded.stop();
    }
    expect(await readdir(nested)).toContain('PG_VERSION');
  });

  it('when the process that started it is killed with SIGKILL, then the server shuts down by itself and the directory starts again with its data', async () => {
    const dir = join(dataDir, 'killed');
    // The built package (the test task builds first): a plain node process, as the suite runs.
    const dist = new URL('../dist/index.js', import.meta.url).href;
    const script = `
      const { startEmbeddedPostgres, createPool } = await import(${JSON.stringify(dist)});
      const db = await startEmbeddedPostgres({ dataDir: ${JSON.stringify(dir)} });
      const pool = createPool({ url: db.url });
      await pool.query("CREATE TABLE kept (v TEXT); INSERT INTO kept VALUES ('before the kill')");
      await pool.query('BEGIN; INSERT INTO kept VALUES ($$never committed$$)');
      process.stdout.write('ready\\n');
      setInterval(() => {}, 1000);
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve, reject) => {
      child.stdout?.on('data', (chunk: Buffer) => chunk.includes('ready') && resolve());
      child.once('exit', (code) => reject(new Error(`child exited with ${code}`)));
    });
    const pid = await serverPid(dir);
    expect(pid !== undefined && alive(pid)).toBe(true);

    child.kill('SIGKILL');

    await until('the orphaned server has shut down', async () => !alive(pid ?? 0));
    const again = await startEmbeddedPostgres({ dataDir: dir });
    const pool = createPool({ url: again.url, ...again.poolOptions });
    try {
      expect((await pool.query('SELECT v FROM kept')).rows).toEqual([{ v: 'before the kill' }]);
    } finally {
      await pool.end();
      await again.stop();
    }
  });

  it('when the lock file names a process that is not postgres (a pid reused after a reboot), then it starts anyway', async () => {
    const dir = join(dataDir, 'stale-lock');
    const first = await startEmbeddedPostgres({ dataDir: dir });
    await first.stop();
    // This test's own pid: alive, and not a postgres.
    await writeFile(join(dir, 'postmaster.pid'), `${process.pid}\n${dir}\n`);

    const again = await startEmbeddedPostgres({ dataDir: dir });
    const pool = createPool({ url: again.url, ...again.poolOptions });
    try {
      expect((await pool.query<{ n: number }>('SELECT 1 AS n')).rows).toEqual([{ n: 1 }]);
    } finally {
      await pool.end();
      await again.stop();
    }
  });
});

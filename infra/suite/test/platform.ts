import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createLogger } from '@msg/logger';
import got from 'got';
import pg from 'pg';
import { loadSuiteConfig } from '../src/config.js';
import { startSuite } from '../src/suite.js';

/** A running platform for end-to-end tests, whichever way it was started. */
export interface Platform {
  gatewayUrl: string;
  adminUrl: string;
  adminToken: string;
  /** The SMSC simulator's control API, when the platform runs one. */
  smscControlUrl?: string;
  stop(): Promise<void>;
}

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const quietLogger = () => createLogger({ service: 'e2e', level: 'error' });

/** The zero-setup default: one process, embedded PGlite, in-process bus. */
export async function startEmbedded(): Promise<Platform> {
  const suite = await startSuite(
    loadSuiteConfig({
      PORT: '0',
      ADMIN_PORT: '0',
      SMSC_CONTROL_PORT: '0',
      EMBEDDED_DATA_DIR: 'memory',
      LOG_LEVEL: 'error',
    }),
    quietLogger(),
  );
  return suite;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(),
      );
    });
  });
}

async function waitReady(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`process exited early:\n${output()}`);
    const res = await got(`${url}/readyz`, { throwHttpErrors: false, retry: { limit: 0 } }).catch(
      () => undefined,
    );
    if (res?.statusCode === 200) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} not ready in time:\n${output()}`);
}

/**
 * The deployed shape: every service its own process (`node services/<name>/dist/main.js`) on real
 * Postgres (a fresh database per run) and real Kafka.
 */
export async function startProcesses(): Promise<Platform> {
  const adminUrlBase = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const brokers = process.env.TEST_KAFKA_BROKERS ?? '127.0.0.1:9092';
  const database = `e2e_${randomBytes(4).toString('hex')}`;
  const server = new pg.Client({ connectionString: adminUrlBase });
  await server.connect();
  await server.query(`CREATE DATABASE ${database}`);
  await server.end();
  const url = new URL(adminUrlBase);
  url.pathname = `/${database}`;

  const adminToken = randomBytes(24).toString('base64url');
  const [adminPort, batchPort, gatewayPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const shared = {
    DATABASE_URL: url.toString(),
    KAFKA_BROKERS: brokers,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    // Services keep their default TRUSTED_PROXIES (loopback: the gateway); the gateway, the edge,
    // keeps its default of trusting no client-supplied X-Forwarded-For.
  };
  const children: ChildProcess[] = [];
  const logs: string[] = [];
  const run = (name: string, env: Record<string, string>) => {
    const child = spawn(process.execPath, [`services/${name}/dist/main.js`], {
      cwd: REPO,
      env: { PATH: process.env.PATH ?? '', ...shared, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (d) => logs.push(`[${name}] ${d}`));
    child.stderr?.on('data', (d) => logs.push(`[${name}] ${d}`));
    children.push(child);
    return child;
  };
  const output = () => logs.join('').slice(-4000);
  const stop = async () => {
    await Promise.all(
      children.map(
        (c) =>
          new Promise<void>((resolve) => {
            if (c.exitCode !== null) return resolve();
            c.once('exit', () => resolve());
            c.kill('SIGTERM');
            setTimeout(() => c.kill('SIGKILL'), 15_000).unref();
          }),
      ),
    );
    const admin = new pg.Client({ connectionString: adminUrlBase });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
  };

  try {
    const admin = run('admin', { PORT: String(adminPort), ADMIN_TOKEN: adminToken });
    const batch = run('batch', {
      PORT: String(batchPort),
      JWT_KEYS: `e2e:${randomBytes(32).toString('base64url')}`,
      JWT_ACTIVE_KID: 'e2e',
    });
    const gateway = run('gateway', {
      PORT: String(gatewayPort),
      UPSTREAM_BATCH: `http://127.0.0.1:${batchPort}`,
    });
    const adminUrl = `http://127.0.0.1:${adminPort}`;
    const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
    await waitReady(adminUrl, admin, output);
    await waitReady(`http://127.0.0.1:${batchPort}`, batch, output);
    await waitReady(gatewayUrl, gateway, output);
    return { gatewayUrl, adminUrl, adminToken, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

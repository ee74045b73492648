import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createPool, migrate } from '@msg/db';
import { createLogger } from '@msg/logger';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPostgresRateLimiter,
  RATE_LIMIT_MIGRATIONS_DIR,
} from '../src/postgres-rate-limiter.js';
import { rateLimit } from '../src/rate-limit-middleware.js';
import { createRateLimiter, type RequestRateLimiter } from '../src/rate-limiter.js';
import { createTestApp, whoami } from './support/app.js';

const url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `rate_limit_${randomUUID().slice(0, 8)}`;
// Far below what the load offers even on a busy machine (slices of 2), and a burst of a whole
// second, so a scheduling pause of the test process wastes no refill.
const LIMIT = { perSecond: 40, burst: 40 };
// Bounded load: at most this long, and at most this many requests in all.
const DURATION_MS = 5_000;
const MAX_REQUESTS = 10_000;
const CONCURRENCY_PER_REPLICA = 4;

const pools: pg.Pool[] = [];
const logger = createLogger({ service: 'auth-test', level: 'error' });

/** One replica: its own pool and limiter, listening on loopback. Returns its base URL. */
async function startReplica(limiter: RequestRateLimiter, account: string) {
  const app = createTestApp((a) =>
    a.get(
      '/limited',
      rateLimit(limiter, () => ({ key: `sms:${account}`, ...LIMIT })),
      whoami,
    ),
  );
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return { base: `http://127.0.0.1:${port}`, close: () => server.close() };
}

/** A replica's limiter on a pool of its own, connected before the clock starts. */
async function postgresLimiter() {
  const pool = createPool({ url, max: 4, applicationName: 'auth-rate-limit-test' });
  pools.push(pool);
  await Promise.all([1, 2, 3, 4].map(() => pool.query('SELECT 1')));
  return createPostgresRateLimiter({ pool, schema });
}

/** Hammers both replicas at once until the time or request budget runs out. */
async function hammer(bases: string[]) {
  let sent = 0;
  let admitted = 0;
  let refused = 0;
  const started = performance.now();
  const worker = async (base: string) => {
    while (sent < MAX_REQUESTS && performance.now() - started < DURATION_MS) {
      sent++;
      const res = await fetch(`${base}/limited`);
      await res.arrayBuffer();
      if (res.status === 200) admitted++;
      else if (res.status === 429 && Number(res.headers.get('retry-after')) >= 1) refused++;
      else throw new Error(`unexpected ${res.status}`);
    }
  };
  await Promise.all(
    bases.flatMap((base) => Array.from({ length: CONCURRENCY_PER_REPLICA }, () => worker(base))),
  );
  const seconds = (performance.now() - started) / 1000;
  // What one bucket may admit over the measured time: the burst, then the rate.
  return { admitted, refused, allowance: LIMIT.burst + LIMIT.perSecond * seconds };
}

describe('per-account rate across two replicas on Postgres', () => {
  beforeAll(async () => {
    const pool = createPool({ url, max: 1 });
    pools.push(pool);
    await migrate({ pool, schema, migrationsDirs: [RATE_LIMIT_MIGRATIONS_DIR], logger });
  });

  afterAll(async () => {
    await pools[0]?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await Promise.all(pools.map((pool) => pool.end()));
  });

  it('when two replicas share the Postgres buckets, then together they admit the configured rate within 5%', async () => {
    const replicas = await Promise.all([
      startReplica(await postgresLimiter(), 'acct-shared'),
      startReplica(await postgresLimiter(), 'acct-shared'),
    ]);
    try {
      const { admitted, refused, allowance } = await hammer(replicas.map((r) => r.base));

      expect(refused).toBeGreaterThan(0);
      // The guarantee: never above what one bucket allows (5 % for the clock readings).
      expect(admitted).toBeLessThanOrEqual(allowance * 1.05);
      // And the account is not starved. Below the allowance by what the replicas still held when
      // the load stopped: a few percent here, more when the machine is so busy that round trips
      // (and with them the slices) grow.
      expect(admitted).toBeGreaterThanOrEqual(allowance * 0.9);
    } finally {
      for (const replica of replicas) replica.close();
    }
  });

  it('when each replica limits in memory instead, then together they admit more than the rate allows', async () => {
    const replicas = await Promise.all([
      startReplica(createRateLimiter(), 'acct-local'),
      startReplica(createRateLimiter(), 'acct-local'),
    ]);
    try {
      const { admitted, allowance } = await hammer(replicas.map((r) => r.base));

      expect(admitted).toBeGreaterThan(allowance * 1.05);
    } finally {
      for (const replica of replicas) replica.close();
    }
  });
});

// Cost of the per-account rate limit on the request path. One replica process answers every
// request with a small JSON behind the rateLimit middleware; the load generator is another process.
//  - no limiter (the floor);
//  - in-process buckets (createRateLimiter), account far under its rate;
//  - shared Postgres buckets (createPostgresRateLimiter), account far under its rate: one lease
//    round trip per slice of 1,000 requests;
//  - both again with the account at 200/s, offered far more: most requests are refused (a 429
//    costs more to render than a 200), with the shared buckets without a round trip;
// and then two replicas on the same shared buckets, loaded at once: what they admit together
// against what the account's rate allows over the measured time.
import {
  createPostgresBucketStore,
  createRateLimiter,
  createSharedRateLimiter,
  RATE_LIMIT_MIGRATIONS_DIR,
} from '@msg/auth';
import { createPool, migrate } from '@msg/db';
import { createLogger } from '@msg/logger';
import { load } from './load.mjs';
import { startProcess, withDatabase } from './processes.mjs';

const COUNT = 10_000;
const CONCURRENCY = 32;
const MAX_SECONDS = 20;
const UNDER = { PER_SECOND: '100000', BURST: '1000' };
const AT_RATE = { PER_SECOND: '200', BURST: '20' };

const DECISIONS = 200_000;

/** Decisions per second of one limiter called in a loop in this process, and its round trips. */
async function decide(name, limiter, limit, leases = () => 0, key = 'sms:bench') {
  let admitted = 0;
  const started = process.hrtime.bigint();
  for (let i = 0; i < DECISIONS; i += 1) {
    let decision = limiter.take(key, limit);
    if (decision instanceof Promise) decision = await decision;
    if (decision.allowed) admitted += 1;
  }
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  return {
    name,
    decisions: DECISIONS,
    admitted,
    roundTrips: leases(),
    meanUs: ((ms / DECISIONS) * 1000).toFixed(2),
  };
}

/** The same decisions without HTTP: what the limiter itself costs, and how often it asks Postgres. */
async function inProcess(databaseUrl) {
  const pool = createPool({ url: databaseUrl, max: 2 });
  try {
    const logger = createLogger({ service: 'bench-limiter', level: 'error' });
    await migrate({
      pool,
      schema: 'bench_direct',
      migrationsDirs: [RATE_LIMIT_MIGRATIONS_DIR],
      logger,
    });
    const store = createPostgresBucketStore({ pool, schema: 'bench_direct' });
    let leases = 0;
    const counted = {
      lease: (...args) => {
        leases += 1;
        return store.lease(...args);
      },
    };
    const shared = () => createSharedRateLimiter({ store: counted });
    const under = { perSecond: 1e9, burst: 1000 };
    const rows = [
      await decide('in-process buckets, under the rate', createRateLimiter(), under),
      await decide('shared Postgres buckets, under the rate', shared(), under, () => leases),
    ];
    leases = 0;
    const atRate = { perSecond: Number(AT_RATE.PER_SECOND), burst: Number(AT_RATE.BURST) };
    rows.push(
      await decide(
        'shared Postgres buckets, at 200/s (most refused)',
        shared(),
        atRate,
        () => leases,
        'sms:bench-at-rate',
      ),
    );
    return rows;
  } finally {
    await pool.end();
  }
}

async function replica(env) {
  const child = await startProcess(['bench/limiter-server.mjs'], env, /listening (\d+)/);
  return { url: `http://127.0.0.1:${child.match[1]}/limited`, stop: child.stop };
}

async function measure(name, env) {
  const server = await replica(env);
  try {
    const result = await load({
      url: server.url,
      count: COUNT,
      concurrency: CONCURRENCY,
      maxSeconds: MAX_SECONDS,
    });
    return { name, ...result };
  } finally {
    server.stop();
  }
}

export async function run() {
  return withDatabase(async (DATABASE_URL) => {
    const rows = [
      await measure('no limiter (floor)', { LIMITER: 'none' }),
      await measure('in-process buckets, under the rate', { LIMITER: 'memory', ...UNDER }),
      await measure('shared Postgres buckets, under the rate', {
        LIMITER: 'postgres',
        DATABASE_URL,
        ...UNDER,
      }),
      await measure('in-process buckets, at 200/s (most refused)', {
        LIMITER: 'memory',
        ...AT_RATE,
      }),
      await measure('shared Postgres buckets, at 200/s (most refused)', {
        LIMITER: 'postgres',
        DATABASE_URL,
        SCHEMA: 'bench_at_rate',
        ...AT_RATE,
      }),
    ];
    const floor = rows[0].perSecond;
    const cost = rows.map((row) => ({ ...row, ratioToFloor: (row.perSecond / floor).toFixed(2) }));

    const env = { LIMITER: 'postgres', DATABASE_URL, SCHEMA: 'bench_two', ...AT_RATE };
    const replicas = [await replica(env), await replica(env)];
    try {
      const started = Date.now();
      const results = await Promise.all(
        replicas.map((r) =>
          load({ url: r.url, count: COUNT / 2, concurrency: CONCURRENCY / 2, maxSeconds: 10 }),
        ),
      );
      const seconds = (Date.now() - started) / 1000;
      const admitted = results.reduce((sum, r) => sum + (r.statuses[200] ?? 0), 0);
      const allowed = Number(AT_RATE.BURST) + Number(AT_RATE.PER_SECOND) * seconds;
      const shared = {
        name: 'two replicas, shared Postgres buckets, account at 200/s burst 20',
        requests: results.reduce((sum, r) => sum + r.requests, 0),
        seconds: seconds.toFixed(2),
        admitted,
        allowed: Math.floor(allowed),
        admittedToAllowed: (admitted / allowed).toFixed(3),
      };
      return [
        {
          title: `Per-account rate limit decisions in one process (${DECISIONS} in a loop)`,
          rows: await inProcess(DATABASE_URL),
        },
        {
          title: `Per-account rate limit on the request path (${COUNT} requests, ${CONCURRENCY} concurrent; latencies in ms)`,
          rows: cost,
        },
        {
          title: 'Two replicas, one account (burst + rate × measured seconds allowed)',
          rows: [shared],
        },
      ];
    } finally {
      for (const r of replicas) r.stop();
    }
  });
}

// The reply-path service (issue 12), on real Postgres:
//  1. `POST /replypath/v1/sendsms` beside `POST /v1/sms/send` and a bare express floor, all three
//     through ONE gateway process in the same run (suite process with every service, Kafka via
//     withKafka). Each request goes to a recipient of its own, so no request waits for a number
//     of the pool (1,000 numbers added to the suite's 95). The interface caps an account at
//     100 requests/s with a burst of 100 (spec 8.2, src/http/capped-rate.ts), so the requests are
//     spread round robin over enough accounts that their bursts alone cover the run: what is
//     measured is the send path, not the limit. Every account's credentials are verified once
//     (scrypt) before the clock starts. The floor is measured before and after; ratios are to the
//     mean of the two.
//  2. Allocation at size: a scratch schema with a pool of 1,000 numbers and 10,000 active
//     reservations seeded by SQL (layout in SEED_LAYOUT), the service's own
//     `allocateReservations` called in a transaction that is rolled back (so every call sees the
//     same state), for a fresh recipient, one holding 500 numbers, one holding 999 and an
//     exhausted one (PoolExhaustedError, the 429); beside floors on the same connection: a bare
//     `SELECT 1` and the one-row reservation insert the allocation ends with. The cases are
//     interleaved, so load that comes and goes on the machine falls on all of them alike. Then
//     EXPLAIN ANALYZE of the allocation's query (freeNumberQuery) for each case.
// Smaller counts: BENCH_REPLYPATH_COUNT=200 BENCH_ALLOCATIONS=50 pnpm bench replypath
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { createPool, migrate } from '@msg/db';
import { createLogger } from '@msg/logger';
import {
  allocateReservations,
  freeNumberQuery,
  PoolExhaustedError,
  REPLYPATH_MIGRATIONS,
  REPLYPATH_SCHEMA,
} from '@msg/replypath';
import { load } from './load.mjs';
import { basic, numberedBodies, startPlatform } from './platform.mjs';
import { json, withDatabase, withKafka } from './processes.mjs';

const COUNT = Number(process.env.BENCH_REPLYPATH_COUNT ?? 2000);
const MAX_SECONDS = Number(process.env.BENCH_REPLYPATH_MAX_SECONDS ?? 60);
const CONCURRENCY = 32;
const ALLOCATIONS = Number(process.env.BENCH_ALLOCATIONS ?? 300);
/** Requests one reply-path account may make from its burst (100) after its warm-up request. */
const PER_ACCOUNT = 90;

const load1 = () => os.loadavg()[0].toFixed(1);

export async function run() {
  const requests = await withKafka((brokers) =>
    withDatabase((databaseUrl) => sendRates(databaseUrl, brokers)),
  );
  const allocation = await withDatabase(allocationTimes);
  return [requests, ...allocation];
}

// --- 1. sends per second -------------------------------------------------------------------

/** Retries `request` until it answers 2xx: the accounts reach each service over accounts.v1. */
async function untilAccepted(request, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await request();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

async function sendRates(databaseUrl, brokers) {
  const platform = await startPlatform({ databaseUrl, brokers, upstreams: ['sms', 'replypath'] });
  const { gatewayUrl, serviceUrls, adminHeaders } = platform;
  try {
    // 1,000 numbers more, as an operator adds them (the pool API of `pnpm replypath add-range`).
    await json(`${serviceUrls.replypath}/internal/v1/pool/numbers`, {
      method: 'POST',
      headers: adminHeaders,
      body: JSON.stringify({ from: '+46701741000', to: '+46701741999' }),
    });
    await platform.account('bench-sms', { permissions: ['sms'], smsThroughputPerSecond: 10_000 });
    const replypathAccounts = Array.from(
      { length: Math.ceil(COUNT / PER_ACCOUNT) },
      (_, i) => `bench-rp-${i}`,
    );
    for (const name of replypathAccounts)
      await platform.account(name, { permissions: ['replypath'], smsThroughputPerSecond: 10_000 });

    const post = (path, authorization, body) =>
      json(`${gatewayUrl}${path}`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    // Warm-up: one accepted request per account (credentials verified and cached; a dry run
    // allocates nothing), to numbers outside the measured ranges.
    await untilAccepted(() =>
      post('/v1/sms/send', basic('bench-sms'), { to: '+46702019999', from: 'BENCH', message: 'w' }),
    );
    for (const name of replypathAccounts)
      await untilAccepted(() =>
        post('/replypath/v1/sendsms?instantiate=false', basic(name), {
          To: '+46702019998',
          Msg: 'w',
        }),
      );

    const measured = (name, result) => ({ name, ...result, load: load1() });
    const common = { count: COUNT, concurrency: CONCURRENCY, maxSeconds: MAX_SECONDS };
    const floorBefore = measured(
      'bare express behind the gateway (floor, before)',
      await load({ url: platform.floorUrl, ...common }),
    );
    const sms = measured(
      'POST /v1/sms/send (202, stored + outbox)',
      await load({
        url: `${gatewayUrl}/v1/sms/send`,
        method: 'POST',
        headers: { authorization: basic('bench-sms'), 'content-type': 'application/json' },
        body: numberedBodies('+4670200', (to) => ({ to, from: 'BENCH', message: 'Benchmark' })),
        ...common,
      }),
    );
    let next = 0;
    const replypath = measured(
      'POST /replypath/v1/sendsms (200, number allocated, stored + outbox)',
      await load({
        url: `${gatewayUrl}/replypath/v1/sendsms`,
        method: 'POST',
        headers: () => {
          next += 1;
          return {
            authorization: basic(replypathAccounts[next % replypathAccounts.length]),
            'content-type': 'application/json',
          };
        },
        body: numberedBodies('+4670210', (To) => ({ To, Msg: 'Benchmark' })),
        ...common,
      }),
    );
    const floorAfter = measured(
      'bare express behind the gateway (floor, after)',
      await load({ url: platform.floorUrl, ...common }),
    );
    const floor = (floorBefore.perSecond + floorAfter.perSecond) / 2;
    const rows = [floorBefore, sms, replypath, floorAfter].map((row) => ({
      name: row.name,
      requests: row.requests,
      statuses: row.statuses,
      perSecond: row.perSecond,
      p50: row.p50,
      p99: row.p99,
      'ratio to floor': (row.perSecond / floor).toFixed(2),
      'ratio to sms send': (row.perSecond / sms.perSecond).toFixed(2),
      load: row.load,
    }));
    return {
      title: `Sends through one gateway process (${COUNT} requests or ${MAX_SECONDS} s each, ${CONCURRENCY} concurrent; ms; ${replypathAccounts.length} reply-path accounts round robin)`,
      rows,
    };
  } finally {
    await platform.stop();
  }
}

// --- 2. allocation at size -----------------------------------------------------------------

const pad = (n) => `'+4670175' || lpad((${n})::text, 4, '0')`;
/** Numbers are +46701750000..+46701750999; number i was allocated last (1000 - i) s ago. */
const SEED_POOL = `
  INSERT INTO "replypath"."pool_numbers" ("number", "enabled", "last_allocated_at")
  SELECT ${pad('i')}, true, $1::timestamptz - make_interval(secs => 1000 - i)
    FROM generate_series(0, 999) AS i`;
/**
 * 10,000 active reservations (window until +1 day, quarantine 1 h more): 5 recipients hold all
 * 1,000 numbers (5,000: exhausted), one holds numbers 0..998 (999: one left, the most recently
 * used, so the allocation walks past all it holds), one holds 0..499 (500), and 3,501 recipients
 * one number each, spread over the pool (3,501).
 */
const SEED_LAYOUT =
  '5 recipients × 1,000 (exhausted) + 1 × 999 + 1 × 500 + 3,501 × 1 = 10,000 active reservations on a pool of 1,000';
const SEED_RESERVATIONS = `
  WITH "pairs"("recipient", "n") AS (
    SELECT '+4670250000' || e, n FROM generate_series(0, 4) AS e, generate_series(0, 999) AS n
    UNION ALL SELECT '+46702510999', n FROM generate_series(0, 998) AS n
    UNION ALL SELECT '+46702510500', n FROM generate_series(0, 499) AS n
    UNION ALL SELECT '+4670252' || lpad(k::text, 4, '0'), (k * 7) % 1000
                FROM generate_series(0, 3500) AS k)
  INSERT INTO "replypath"."reservations"
    ("id", "number", "recipient", "transaction_id", "account_id", "one_shot", "dlr",
     "starts_at", "ends_at", "quarantine_until")
  SELECT gen_random_uuid(), ${pad('n')}, "recipient", gen_random_uuid(), gen_random_uuid(),
         false, false, $1::timestamptz - interval '1 minute', $1::timestamptz + interval '1 day',
         $1::timestamptz + interval '1 day 1 hour'
    FROM "pairs"`;

let fresh = 0;
const CASES = [
  { name: 'fresh recipient', recipient: () => `+467026${String(fresh++).padStart(5, '0')}` },
  { name: 'recipient holding 500', recipient: () => '+46702510500' },
  { name: 'recipient holding 999 (one left)', recipient: () => '+46702510999' },
  { name: 'exhausted recipient (429 path)', recipient: () => '+46702500000' },
];

/** The time of `step(client)` inside BEGIN … ROLLBACK (the transaction's own statements not counted). */
async function timed(client, step) {
  await client.query('BEGIN');
  try {
    const started = process.hrtime.bigint();
    const outcome = await step(client);
    return { ms: Number(process.hrtime.bigint() - started) / 1e6, outcome };
  } finally {
    await client.query('ROLLBACK');
  }
}

const reservationRequest = (recipient) => ({
  recipient,
  transactionId: randomUUID(),
  accountId: randomUUID(),
  oneShot: false,
  dlr: false,
  vpMinutes: 60,
});

/** The plan as one line: node type, relation or index, children in parentheses. */
function planLine(node) {
  const on = node['Index Name'] ?? node['Relation Name'];
  const join = node['Join Type'] && node['Join Type'] !== 'Inner' ? ` ${node['Join Type']}` : '';
  const self = `${node['Node Type']}${join}${on ? ` ${on}` : ''}`;
  const children = node.Plans ?? [];
  return children.length ? `${self} (${children.map(planLine).join(', ')})` : self;
}

async function allocationTimes(databaseUrl) {
  const pool = createPool({ url: databaseUrl, max: 2 });
  const logger = createLogger({ service: 'bench-replypath', level: 'error' });
  try {
    await migrate({
      pool,
      schema: REPLYPATH_SCHEMA,
      migrationsDirs: REPLYPATH_MIGRATIONS,
      logger,
    });
    const at = new Date();
    await pool.query(SEED_POOL, [at]);
    await pool.query(SEED_RESERVATIONS, [at]);
    await pool.query('ANALYZE "replypath"."pool_numbers", "replypath"."reservations"');
    const { rows: counts } = await pool.query(
      `SELECT count(*)::int AS "active" FROM "replypath"."reservations" WHERE "quarantine_until" > $1`,
      [at],
    );

    const allocate = (recipient) => async (client) => {
      try {
        const [reservation] = await allocateReservations(client, [reservationRequest(recipient)], {
          at,
          quarantineMs: 3_600_000,
        });
        return reservation.number;
      } catch (error) {
        if (error instanceof PoolExhaustedError) return '429';
        throw error;
      }
    };
    const floors = [
      {
        name: 'floor: SELECT 1',
        step: async (client) => {
          await client.query('SELECT 1');
          return 'ok';
        },
      },
      {
        name: 'floor: one-row reservation INSERT',
        step: async (client) => {
          await client.query(
            `INSERT INTO "replypath"."reservations"
               ("id", "number", "recipient", "transaction_id", "account_id", "one_shot", "dlr",
                "starts_at", "ends_at", "quarantine_until")
             VALUES ($1, '+46701750000', '+46702999999', $2, $3, false, false, $4, $4, $4)`,
            [randomUUID(), randomUUID(), randomUUID(), at],
          );
          return 'ok';
        },
      },
    ];
    const series = [
      ...floors,
      ...CASES.map((c) => ({ name: c.name, step: (client) => allocate(c.recipient())(client) })),
    ].map((s) => ({ ...s, ms: [], outcomes: new Map() }));

    const client = await pool.connect();
    const loadBefore = load1();
    try {
      for (let i = 0; i < ALLOCATIONS; i += 1)
        for (const s of series) {
          const { ms, outcome } = await timed(client, s.step);
          s.ms.push(ms);
          const key = /^\+/.test(outcome) ? 'number' : outcome;
          s.outcomes.set(key, (s.outcomes.get(key) ?? 0) + 1);
        }
    } finally {
      client.release();
    }
    const loadAfter = load1();

    const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
    for (const s of series) s.ms.sort((a, b) => a - b);
    const selectOne = pct(series[0].ms, 0.5);
    const insert = pct(series[1].ms, 0.5);
    const rows = series.map((s) => ({
      name: s.name,
      calls: s.ms.length,
      outcomes: Object.fromEntries(s.outcomes),
      'p50 ms': pct(s.ms, 0.5).toFixed(3),
      'p99 ms': pct(s.ms, 0.99).toFixed(3),
      'p50 / SELECT 1': (pct(s.ms, 0.5) / selectOne).toFixed(1),
      'p50 / INSERT': (pct(s.ms, 0.5) / insert).toFixed(1),
    }));

    const plans = [];
    const tx = await pool.connect();
    try {
      for (const c of CASES) {
        const { outcome: plan } = await timed(tx, async (t) => {
          const { rows: out } = await t.query(
            `EXPLAIN (ANALYZE, FORMAT JSON) ${freeNumberQuery('skip')}`,
            [c.recipient(), at, []],
          );
          return out[0]['QUERY PLAN'][0];
        });
        plans.push({
          case: c.name,
          plan: planLine(plan.Plan),
          'execution ms': plan['Execution Time'].toFixed(3),
        });
      }
    } finally {
      tx.release();
    }
    return [
      {
        title: `Allocation, ${counts[0].active} active reservations (${SEED_LAYOUT}); allocateReservations in a rolled-back transaction, ${ALLOCATIONS} calls per row interleaved, one connection; load ${loadBefore} → ${loadAfter}`,
        rows,
      },
      { title: 'EXPLAIN ANALYZE of the free-number query (skip-locked form)', rows: plans },
    ];
  } finally {
    await pool.end();
  }
}

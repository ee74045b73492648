// The SMS delivery path apart from HTTP intake (issue 11), in one run against one SMSC process:
//  1. floor: a bare `smpp` client (smpp-raw-client.mjs), window 50, receipts on, N submit_sm;
//  2. the platform (`infra/suite`, one process: gateway + every service + connector) bound to the
//     same SMSC with `window=50&tps=10000` and the account's limit lifted: the SMSC drops and
//     refuses the bind, N sends are accepted through the gateway, then binds are let through and
//     the first to the last submit_sm are timed at the SMSC; also how long until every message
//     reads a final status through the API (receipts included). On real Postgres + Kafka and on
//     the embedded default (no DATABASE_URL / KAFKA_BROKERS);
//  3. a configured 100/s account limit over a 60 s window (Postgres + Kafka, simulator): sends are
//     offered at ~150/s, so the connector's pacing is what shapes the submit rate;
//  4. a CPU profile of the suite process during the delivery run on Postgres + Kafka (or the
//     embedded default: SMPP_BENCH_PROFILE_STORE).
// Every row is a ratio to the floor of the same run: absolute rates on a shared 2-core machine
// move with whatever else runs (the load average is reported beside them). Beside the rate, each
// row gives the CPU ms per message over the same window, of the machine and of each process
// (suite, SMSC, the private Kafka broker, Postgres, the rest): during delivery both cores are busy,
// so these say where the work is, and move far less between identical runs than the rate does.
// On Postgres + Kafka a table also gives the rows Postgres wrote per message (its own counters).
// Against each SMSC (simulator, then jsmpp) the whole sequence runs once; on the busy 2-core
// machine of issue 11's "before" that was ~10 min for the simulator and ~8 min for jsmpp, mostly
// intake and waiting for receipts of the slow platform — narrow it with the options below.
//
//   pnpm bench smpp-delivery
//   SMPP_BENCH_SMSCS=jsmpp SMPP_BENCH_STORES=postgres pnpm bench smpp-delivery
//
// Options (environment):
//   SMPP_BENCH_COUNT=5000            messages per delivery run (floor and platform)
//   SMPP_BENCH_SMSCS=simulator,jsmpp SMS centres to run against (jsmpp skipped if not available)
//   SMPP_BENCH_STORES=postgres,embedded  platform shapes (postgres = real Postgres + Kafka)
//   SMPP_BENCH_LIMIT=1               0 skips the 100/s account limit check (~2 min)
//   SMPP_BENCH_LIMIT_SECONDS=60      its measured window
//   SMPP_BENCH_PROFILE=1             0 skips the CPU profile; else the .cpuprofile is kept in
//                                    SMPP_BENCH_PROFILE_DIR (default: a new directory in /tmp)
//   SMPP_BENCH_PROFILE_STORE=postgres the platform shape profiled (the simulator's run of it)
//   SMPP_BENCH_MAX_SECONDS=300       bound of each phase (intake, delivery, final statuses)
//   SMPP_BENCH_SUITE_LOG=<file>      write the suite's log (level info) there when it stops
//   BENCH_DATABASE_URL               as for every benchmark (processes.mjs)
//   BENCH_KAFKA_BROKERS              a broker to use; unset: a private one (withKafka in processes.mjs),
//                                    since suites on a shared broker take each other's messages
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { cpuSnapshot, json, startProcess, withDatabase, withKafka } from './processes.mjs';
import { summarise } from './profile-summary.mjs';
import { submitRaw } from './smpp-raw-client.mjs';
import { SMSCS } from './smsc-servers.mjs';

const COUNT = Number(process.env.SMPP_BENCH_COUNT ?? 5000);
const WINDOW = 50;
const SMSC_NAMES = (process.env.SMPP_BENCH_SMSCS ?? 'simulator,jsmpp').split(',');
const STORES = (process.env.SMPP_BENCH_STORES ?? 'postgres,embedded').split(',');
const LIMIT_CHECK = process.env.SMPP_BENCH_LIMIT !== '0';
const PROFILE = process.env.SMPP_BENCH_PROFILE !== '0';
const PROFILE_STORE = process.env.SMPP_BENCH_PROFILE_STORE ?? 'postgres';
const storeLabel = (store) => (store === 'postgres' ? 'Postgres + Kafka' : 'embedded default');
const MAX_MS = Number(process.env.SMPP_BENCH_MAX_SECONDS ?? 300) * 1000;
const INTAKE_CONCURRENCY = 32;
const LIMIT_TPS = 100;
const LIMIT_OFFERED = 150;
const LIMIT_WINDOW_S = Number(process.env.SMPP_BENCH_LIMIT_SECONDS ?? 60);
const PASSWORD = 'bench-password-1';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const log = (line) =>
  process.stderr.write(`[smpp-delivery ${new Date().toISOString().slice(11, 19)}] ${line}\n`);

/** Polls `check` until it returns a truthy value (returned) or `timeoutMs` passes (then null). */
async function waitFor(check, timeoutMs, intervalMs = 200) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) return null;
    await sleep(intervalMs);
  }
}

/**
 * CPU ms per message between two snapshots (cpuSnapshot): the machine's, and that of the suite,
 * the SMSC, the private Kafka broker, Postgres (its backends, the embedded one's too) and the rest
 * (this process, a raw client, a shared broker). The kernel's own work, such as loopback delivery,
 * shows only in the machine's figure.
 */
function cpuPerMessage(before, after, messages, { suitePid, smscPid, kafkaPid }) {
  const ms = { machine: ((after.machine - before.machine) * 1000) / messages };
  const labels = new Map([
    [suitePid, 'suite'],
    [smscPid, 'smsc'],
    [kafkaPid, 'kafka'],
  ]);
  const labelOf = (pid, command) =>
    labels.get(pid) ?? (command === 'postgres' ? 'postgres' : 'other processes');
  for (const label of ['suite', 'smsc', 'kafka', 'postgres', 'other processes']) ms[label] = 0;
  for (const [pid, { command, cpuSeconds }] of after.processes) {
    const spent = cpuSeconds - (before.processes.get(pid)?.cpuSeconds ?? 0);
    ms[labelOf(pid, command)] += (spent * 1000) / messages;
  }
  return ms;
}

/**
 * Rows written so far in each table of `databaseUrl`, and its transactions: Postgres' own
 * counters (pg_stat_user_tables, pg_stat_database), which count work, not time, and so do not
 * drift with the machine. Postgres publishes them from each backend within about a second.
 */
async function databaseWrites(databaseUrl) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows: tables } = await client.query(
      `SELECT schemaname || '.' || relname AS "table", n_tup_ins AS inserted,
              n_tup_upd AS updated, n_tup_del AS deleted FROM pg_stat_user_tables`,
    );
    const { rows: database } = await client.query(
      'SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()',
    );
    return { tables, commits: Number(database[0].xact_commit) };
  } finally {
    await client.end();
  }
}

/** Rows written per message between two databaseWrites, busiest tables first. */
function writesPerMessage(before, after, messages) {
  const earlier = new Map(before.tables.map((row) => [row.table, row]));
  const perMessage = (row, column) =>
    (Number(row[column]) - Number(earlier.get(row.table)?.[column] ?? 0)) / messages;
  const rows = after.tables
    .map((row) => ({
      table: row.table,
      inserted: perMessage(row, 'inserted'),
      updated: perMessage(row, 'updated'),
      deleted: perMessage(row, 'deleted'),
    }))
    .filter((row) => row.inserted + row.updated + row.deleted > 0)
    .sort((a, b) => b.inserted + b.updated + b.deleted - (a.inserted + a.updated + a.deleted));
  return {
    transactions: (after.commits - before.commits) / messages,
    rows: rows.map((row) => ({
      table: row.table,
      'inserted per message': row.inserted.toFixed(2),
      'updated per message': row.updated.toFixed(2),
      'deleted per message': row.deleted.toFixed(2),
    })),
  };
}

/** First-to-last submit_sm as the SMSC recorded them. */
function submitTiming(stats) {
  const first = Date.parse(stats.firstSubmitAt);
  const seconds = (Date.parse(stats.lastSubmitAt) - first) / 1000;
  return { first, submits: stats.submits, seconds, perSecond: (stats.submits - 1) / seconds };
}

async function rawFloor(smsc) {
  // A first round unmeasured: the JVM of the jsmpp SMSC is several times slower until compiled.
  await smsc.reset();
  await submitRaw(smsc, { count: COUNT, window: WINDOW, prefix: '4670100', maxSeconds: 60 });
  await smsc.reset();
  const before = load();
  const cpuBefore = cpuSnapshot();
  const result = await submitRaw(smsc, {
    count: COUNT,
    window: WINDOW,
    prefix: '4670100',
    maxSeconds: MAX_MS / 1000,
  });
  const cpuAfter = cpuSnapshot();
  const timing = submitTiming(await smsc.stats());
  return {
    ...timing,
    cpuMs: cpuPerMessage(cpuBefore, cpuAfter, timing.submits, { smscPid: smsc.pid }),
    refused: result.refused,
    finalSeconds: (result.receiptsDoneAt - timing.first) / 1000,
    load: before,
  };
}

/** The suite process on `store`, bound to `smsc` only; resolves when its gateway is ready. */
async function startSuite(store, smsc, { databaseUrl, brokers }, profileDir) {
  const env = {
    PORT: '0',
    ADMIN_PORT: '0',
    SMSC_CONTROL_PORT: '0',
    SMSC_BINDS: smsc.bindUrl({ name: 'bench', window: String(WINDOW), tps: '10000' }),
    LOG_LEVEL: process.env.SMPP_BENCH_SUITE_LOG ? 'info' : 'error',
    ...(store === 'postgres'
      ? { DATABASE_URL: databaseUrl, KAFKA_BROKERS: brokers }
      : {
          EMBEDDED_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'bench-pglite-')),
          // Given, so the suite keeps no key file beside the temporary data directory.
          CALLBACK_SECRETS_KEY: randomBytes(32).toString('hex'),
        }),
  };
  const args = [
    ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
    'infra/suite/dist/main.js',
  ];
  const suite = await startProcess(
    args,
    env,
    /Admin API \(internal\)\s+(\S+)\s+token: (\S+)[\s\S]*ready: (\S+)/,
  );
  const [, adminUrl, adminToken, gatewayUrl] = suite.match;
  return {
    adminUrl,
    adminToken,
    gatewayUrl,
    pid: suite.pid,
    async stop() {
      suite.stop();
      if (process.env.SMPP_BENCH_SUITE_LOG)
        writeFileSync(process.env.SMPP_BENCH_SUITE_LOG, suite.output());
      // Wait for the exit: the CPU profile is written then.
      await waitFor(() => {
        try {
          process.kill(suite.pid, 0);
          return false;
        } catch {
          return true;
        }
      }, 30_000);
      if (env.EMBEDDED_DATA_DIR) rmSync(env.EMBEDDED_DATA_DIR, { recursive: true, force: true });
    },
  };
}

async function createAccount(suite, name, smsThroughputPerSecond) {
  await json(`${suite.adminUrl}/internal/v1/accounts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${suite.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      name,
      password: PASSWORD,
      permissions: ['sms'],
      // A rate well under the burst: the shared request limiter leases a slice of the rate sized
      // by its database round trip, and a slice as large as the burst is refused (429) under load.
      rateLimit: { perSecond: 10_000, burst: 1_000_000 },
      smsThroughputPerSecond,
    }),
  });
  const authorization = `Basic ${Buffer.from(`${name}:${PASSWORD}`).toString('base64')}`;
  // The account directory reaches the gateway and the sms service through the bus.
  await waitFor(
    () =>
      fetch(`${suite.gatewayUrl}/v1/sms/00000000-0000-4000-8000-000000000000`, {
        headers: { authorization },
      }).then((r) => r.status === 404),
    30_000,
  );
  return authorization;
}

/**
 * Sends `count` messages through the gateway, `INTAKE_CONCURRENCY` at a time, at most `perSecond`
 * when given; returns the accepted message ids (bounded by `until()` and MAX_MS).
 */
async function intake(
  suite,
  authorization,
  { count, prefix, perSecond, until = () => false, onAccepted = () => {} },
) {
  const ids = [];
  const started = Date.now();
  const deadline = started + MAX_MS;
  let next = 0;
  let refused = 0;
  const retried = {};
  const send = (n) =>
    fetch(`${suite.gatewayUrl}/v1/sms/send`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({
        to: `+${prefix}${String(n).padStart(7, '0')}`,
        from: 'BENCH',
        message: 'Benchmark message',
      }),
    });
  const worker = async () => {
    while (next < count && Date.now() < deadline && !until()) {
      next += 1;
      const n = next;
      if (perSecond) await sleep(started + (n * 1000) / perSecond - Date.now());
      let res = await send(n);
      // 429 (the account's request limit) and 503 (storage busy) say "retry later", not "never":
      // the same send again, as a client would.
      while ((res.status === 429 || res.status === 503) && Date.now() < deadline) {
        retried[res.status] = (retried[res.status] ?? 0) + 1;
        await res.text();
        await sleep(100);
        res = await send(n);
      }
      const body = await res.json().catch(() => ({}));
      if (res.status === 202) {
        ids.push(body.messageId);
        onAccepted();
      } else {
        refused += 1;
        if (refused === 1) log(`send refused: ${res.status} ${JSON.stringify(body)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: INTAKE_CONCURRENCY }, worker));
  if (Object.keys(retried).length > 0) log(`intake: sent again after ${JSON.stringify(retried)}`);
  return { ids, refused, seconds: (Date.now() - started) / 1000 };
}

/**
 * Seconds from `since` (ms) until every message reads a final status through the API, or null.
 * Each round reads the pending ones in order and stops at 50 not final yet, so polling stays a
 * small load beside the delivery it waits for; the answer is late by at most one round.
 */
async function untilFinal(suite, authorization, ids, since) {
  let pending = [...ids];
  const statuses = {};
  const finished = await waitFor(
    async () => {
      const stillPending = [];
      let notFinal = 0;
      for (let i = 0; i < pending.length; i += 8) {
        if (notFinal >= 50) {
          stillPending.push(...pending.slice(i));
          break;
        }
        const batch = pending.slice(i, i + 8);
        // A 429 (the account's request limit) is a read to try again in the next round.
        const views = await Promise.all(
          batch.map((id) =>
            fetch(`${suite.gatewayUrl}/v1/sms/${id}`, { headers: { authorization } }).then((r) =>
              r.ok ? r.json() : r.text().then(() => ({ status: `http ${r.status}` })),
            ),
          ),
        );
        views.forEach((view, j) => {
          if (['delivered', 'failed', 'expired'].includes(view.status)) {
            statuses[view.status] = (statuses[view.status] ?? 0) + 1;
          } else {
            notFinal += 1;
            stillPending.push(batch[j]);
          }
        });
      }
      pending = stillPending;
      return pending.length === 0 ? Date.now() : false;
    },
    MAX_MS,
    500,
  );
  return {
    seconds: finished ? (finished - since) / 1000 : null,
    statuses,
    pending: pending.length,
  };
}

/** The delivery run: backlog accepted with binds refused, then released and timed at the SMSC. */
async function platformDelivery(suite, smsc, authorization, prefix, { kafkaPid, databaseUrl }) {
  const accepted = await intake(suite, authorization, { count: COUNT, prefix });
  log(`accepted ${accepted.ids.length} in ${accepted.seconds.toFixed(1)} s; releasing binds`);
  let writesBefore;
  if (databaseUrl) {
    // What the intake wrote reaches the counters first.
    await sleep(1_500);
    writesBefore = await databaseWrites(databaseUrl);
  }
  const before = load();
  await smsc.holdBinds(false);
  // The window opens at the first submit_sm, not at the release: the connector's reconnect
  // backoff, grown while binds were refused, idles for up to its maximum before it binds.
  await waitFor(async () => (await smsc.stats()).submits > 0, MAX_MS, 10);
  const from = monotonicUs();
  const cpuBefore = cpuSnapshot();
  const stats = await waitFor(
    async () => {
      const s = await smsc.stats();
      return s.submits >= accepted.ids.length && s;
    },
    MAX_MS,
    50,
  );
  const cpuAfter = cpuSnapshot();
  const to = monotonicUs();
  const timing = submitTiming(stats ?? (await smsc.stats()));
  log(`${timing.submits} submits in ${timing.seconds.toFixed(1)} s; waiting for final statuses`);
  const final = await untilFinal(suite, authorization, accepted.ids, timing.first);
  let writes;
  if (writesBefore) {
    await sleep(1_500);
    writes = writesPerMessage(writesBefore, await databaseWrites(databaseUrl), timing.submits);
  }
  return {
    writes,
    ...timing,
    cpuMs: cpuPerMessage(cpuBefore, cpuAfter, timing.submits, {
      suitePid: suite.pid,
      smscPid: smsc.pid,
      kafkaPid,
    }),
    accepted: accepted.ids.length,
    intakePerSecond: accepted.ids.length / accepted.seconds,
    final,
    load: `${before} → ${load()}`,
    window: { from, to },
  };
}

/**
 * The 100/s account limit: sends offered at ~150/s, submits counted over a 60 s window. Binds are
 * held until half the window's worth is waiting, so the connector's pacing, not the intake, shapes
 * the rate even where the intake cannot keep 150/s (`backlogLeft` > 0 at the end says it did).
 */
async function limitCheck(suite, smsc) {
  const authorization = await createAccount(suite, 'bench-limited', LIMIT_TPS);
  await smsc.reset();
  await smsc.holdBinds(true);
  await smsc.dropBinds();
  let windowEnd = Infinity;
  let accepted = 0;
  const offered = intake(suite, authorization, {
    count: LIMIT_OFFERED * (LIMIT_WINDOW_S * 2),
    prefix: '4673',
    perSecond: LIMIT_OFFERED,
    until: () => Date.now() > windowEnd,
    onAccepted: () => {
      accepted += 1;
    },
  });
  await waitFor(() => accepted >= (LIMIT_TPS * LIMIT_WINDOW_S) / 2, MAX_MS);
  log(`limit check: ${accepted} waiting; releasing binds`);
  await smsc.holdBinds(false);
  const started = await waitFor(async () => (await smsc.stats()).firstSubmitAt, 60_000);
  windowEnd = Date.parse(started) + LIMIT_WINDOW_S * 1000;
  const before = load();
  const sent = await offered;
  await waitFor(() => Date.now() > windowEnd + 1000, MAX_MS);
  const times = (await smsc.submits()).map((s) => Date.parse(s.receivedAt));
  const first = times[0];
  const inWindow = times.filter((t) => t < first + LIMIT_WINDOW_S * 1000);
  const perSecondBuckets = new Map();
  for (const t of inWindow) {
    const bucket = Math.floor((t - first) / 1000);
    perSecondBuckets.set(bucket, (perSecondBuckets.get(bucket) ?? 0) + 1);
  }
  const measured = inWindow.length / LIMIT_WINDOW_S;
  return {
    configured: LIMIT_TPS,
    offeredPerSecond: sent.ids.length / sent.seconds,
    measured,
    deviation: (measured - LIMIT_TPS) / LIMIT_TPS,
    busiestSecond: Math.max(...perSecondBuckets.values()),
    quietestSecond: Math.min(...perSecondBuckets.values()),
    backlogLeft: sent.ids.length - times.length,
    load: `${before} → ${load()}`,
  };
}

/** One platform shape against one SMSC; its delivery run and, when asked, the limit check. */
async function platformRun(store, smsc, { profile, limit }) {
  const profileDir = profile
    ? (process.env.SMPP_BENCH_PROFILE_DIR ?? mkdtempSync(path.join(os.tmpdir(), 'bench-profile-')))
    : null;
  const run = async (stores) => {
    await smsc.reset();
    // The suite is ready once its connector is bound; then the SMSC drops and refuses the bind.
    const suite = await startSuite(store, smsc, stores, profileDir);
    let delivery;
    let limited;
    try {
      const authorization = await createAccount(suite, 'bench-fast', 10_000);
      await smsc.holdBinds(true);
      await smsc.dropBinds();
      await smsc.reset();
      await smsc.holdBinds(true);
      delivery = await platformDelivery(suite, smsc, authorization, '4670', stores);
      if (limit) limited = await limitCheck(suite, smsc);
    } finally {
      await suite.stop();
    }
    let cpu;
    if (profileDir) {
      const file = readdirSync(profileDir)
        .filter((f) => f.endsWith('.cpuprofile'))
        .sort()
        .at(-1);
      cpu = summarise(
        JSON.parse(readFileSync(path.join(profileDir, file), 'utf8')),
        delivery.window,
      );
      cpu.file = path.join(profileDir, file);
    }
    return { delivery, limited, cpu };
  };
  if (store !== 'postgres') return run({});
  // A broker of its own unless one is named (withKafka).
  return withKafka(async (brokers, kafka) => {
    const kafkaPid = await kafka?.pid();
    return withDatabase((databaseUrl) => run({ databaseUrl, brokers, kafkaPid }));
  });
}

/** The CPU ms per message columns of a row (the raw floor's "other processes" is its client). */
const cpuColumns = (ms) =>
  Object.fromEntries(
    Object.entries(ms).map(([label, value]) => [`cpu ms/msg: ${label}`, fixed(value, 3)]),
  );

const fixed = (n, digits = 0) => (n === null || n === undefined ? '—' : n.toFixed(digits));

export async function run() {
  const tables = [];
  const sections = [];
  for (const smscName of SMSC_NAMES) {
    const smsc = await SMSCS[smscName]();
    if (smsc.missing) {
      log(`${smscName} skipped: ${smsc.missing}`);
      tables.push({ title: `${smscName}: skipped`, rows: [{ reason: smsc.missing }] });
      continue;
    }
    try {
      log(`${smsc.name}: raw floor, ${COUNT} submits`);
      const floor = await rawFloor(smsc);
      const rows = [
        {
          name: `raw smpp client, window ${WINDOW} (floor)`,
          submits: floor.submits,
          seconds: fixed(floor.seconds, 2),
          perSecond: fixed(floor.perSecond),
          ratio: '1.00',
          ...cpuColumns(floor.cpuMs),
          allFinalSeconds: fixed(floor.finalSeconds, 1),
          loadAverage: floor.load,
        },
      ];
      for (const store of STORES) {
        const profile = PROFILE && store === PROFILE_STORE && smscName === 'simulator';
        const limit = LIMIT_CHECK && store === 'postgres' && smscName === 'simulator';
        log(`${smsc.name}: platform on ${store}`);
        const { delivery, limited, cpu } = await platformRun(store, smsc, { profile, limit });
        rows.push({
          name: `platform, ${storeLabel(store)} (accepted at ${fixed(delivery.intakePerSecond)}/s before)`,
          submits: delivery.submits,
          seconds: fixed(delivery.seconds, 2),
          perSecond: fixed(delivery.perSecond),
          ratio: fixed(delivery.perSecond / floor.perSecond, 3),
          ...cpuColumns(delivery.cpuMs),
          allFinalSeconds: delivery.final.pending
            ? `${delivery.final.pending} not final after ${MAX_MS / 1000} s`
            : fixed(delivery.final.seconds, 1),
          loadAverage: delivery.load,
        });
        if (delivery.writes) {
          sections.push({
            title: `Rows Postgres wrote per message from the binds' release until every status was final (${smsc.name}, ${delivery.writes.transactions.toFixed(2)} transactions per message)`,
            rows: delivery.writes.rows,
          });
        }
        if (limited) {
          sections.push({
            title: `Account limit ${LIMIT_TPS}/s over ${LIMIT_WINDOW_S} s (Postgres + Kafka, ${smsc.name}, sends offered at ~${LIMIT_OFFERED}/s)`,
            rows: [
              {
                configured: limited.configured,
                offeredPerSecond: fixed(limited.offeredPerSecond),
                measuredPerSecond: fixed(limited.measured, 2),
                deviation: `${(limited.deviation * 100).toFixed(2)}%`,
                within2Percent: Math.abs(limited.deviation) <= 0.02 ? 'yes' : 'no',
                backlogLeft: limited.backlogLeft,
                busiestSecond: limited.busiestSecond,
                quietestSecond: limited.quietestSecond,
                loadAverage: limited.load,
              },
            ],
          });
        }
        if (cpu) {
          log(
            `profile: node bench/profile-summary.mjs ${cpu.file} --from ${delivery.window.from} --to ${delivery.window.to}`,
          );
          sections.push({
            title: `CPU of the suite process during the delivery run (${storeLabel(PROFILE_STORE)}): ${cpu.windowMs} ms sampled, event loop busy ${cpu.busyPercent}% — self time by package`,
            rows: cpu.packages,
          });
          sections.push({
            title: "Same window — Node's own and native work charged to the package that called it",
            rows: cpu.callers,
          });
          sections.push({ title: 'Same window — self time by function', rows: cpu.functions });
        }
      }
      tables.push({
        title: `submit_sm reaching ${smsc.name}: ${COUNT} messages, receipts on, first to last submit at the SMSC`,
        rows,
      });
    } finally {
      await smsc.stop();
    }
  }
  return [...tables, ...sections];
}

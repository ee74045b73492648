// The embedded default's database, measured as `pnpm start` uses it (no DATABASE_URL, no
// KAFKA_BROKERS): the database alone (init on an empty directory, restart on existing data), the
// suite to its "ready:" line (fresh data directory, then a restart), and the SMS path on it:
// send-API accepts through the suite's gateway, and submit_sm reaching the SMSC simulator for a
// backlog accepted while the simulator refused binds (delivery apart from HTTP intake, as issue
// 11 measures it).
//
// BENCH_COMPARE_REPO=/path/to/other/checkout (built) runs the same on that checkout's embedded
// database in the same run, e.g. the PGlite default before the switch:
//   BENCH_COMPARE_REPO=/work/main node bench/run.mjs embedded-db
// BENCH_COMPARE_FIRST=1 measures that checkout first (alternate runs on a noisy machine).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load } from './load.mjs';
import { json } from './processes.mjs';

const THIS_REPO = fileURLToPath(new URL('..', import.meta.url));
const SEND_COUNT = Number(process.env.BENCH_SEND_COUNT ?? 2000);
const BACKLOG = Number(process.env.BENCH_BACKLOG ?? 2000);
const CONCURRENCY = 32;
const DB_ROUNDS = 3;

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Runs `node -e script` in `cwd`; resolves with its stdout parsed as JSON. */
function nodeJson(cwd, script) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      cwd,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.once('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`exited ${code}: ${out}`)),
    );
  });
}

/** The database alone: startEmbeddedPostgres on an empty directory, then again on its data. */
async function databaseStartup(repo) {
  const dist = join(repo, 'packages/db/dist/index.js');
  const script = `
    import { chmod, mkdtemp, rm } from 'node:fs/promises';
    import { tmpdir } from 'node:os';
    import { join } from 'node:path';
    const { startEmbeddedPostgres, createPool } = await import(${JSON.stringify(dist)});
    const parent = await mkdtemp(join(tmpdir(), 'bench-embedded-db-'));
    await chmod(parent, 0o755);
    const dataDir = join(parent, 'data');
    const timed = async () => {
      const started = performance.now();
      const db = await startEmbeddedPostgres({ dataDir });
      const pool = createPool({ url: db.url, ...db.poolOptions });
      await pool.query('SELECT 1');
      const ms = performance.now() - started;
      await pool.end();
      await db.stop();
      return ms;
    };
    const init = await timed();
    const restart = await timed();
    await rm(parent, { recursive: true, force: true });
    process.stdout.write(JSON.stringify({ init, restart }));
    process.exit(0);
  `;
  const runs = [];
  for (let i = 0; i < DB_ROUNDS; i++) runs.push(await nodeJson(repo, script));
  return {
    init: median(runs.map((r) => r.init)),
    restart: median(runs.map((r) => r.restart)),
  };
}

const TRANSACTIONS = 2000;

/**
 * The database alone under the suite's kind of work: TRANSACTIONS short transactions (insert a
 * row, update it, read it back) from 16 concurrent callers on the repo's embedded database with
 * its pool options. Wall time is noisy on a shared machine; the CPU time this Node process spent
 * is not, and it is what the one-process suite pays (PGlite runs inside it, PostgreSQL beside it).
 */
export async function databaseWork(repo) {
  const dist = join(repo, 'packages/db/dist/index.js');
  const script = `
    const { startEmbeddedPostgres, createPool, withTransaction } = await import(${JSON.stringify(dist)});
    const db = await startEmbeddedPostgres();
    const pool = createPool({ url: db.url, ...db.poolOptions });
    await pool.query('CREATE TABLE item (id INTEGER PRIMARY KEY, status TEXT, n INTEGER)');
    let next = 0;
    const cpu = process.cpuUsage();
    const started = performance.now();
    const worker = async () => {
      while (next < ${TRANSACTIONS}) {
        const id = next++;
        await withTransaction(pool, async (c) => {
          await c.query('INSERT INTO item VALUES ($1, $2, 0)', [id, 'accepted']);
          await c.query('UPDATE item SET status = $2, n = n + 1 WHERE id = $1', [id, 'submitted']);
          await c.query('SELECT status, n FROM item WHERE id = $1', [id]);
        });
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    const ms = performance.now() - started;
    const used = process.cpuUsage(cpu);
    await pool.end();
    await db.stop();
    process.stdout.write(JSON.stringify({ perSecond: ${TRANSACTIONS} / (ms / 1000), cpuMsPer1000: (used.user + used.system) / 1000 / (${TRANSACTIONS} / 1000) }));
    process.exit(0);
  `;
  return nodeJson(repo, script);
}

const BANNER =
  /Admin API \(internal\)\s+(\S+)\s+token: (\S+)\s+SMSC simulator control (\S+)[\s\S]*^ready: (\S+)$/m;

/**
 * The key sealing callback signing secrets, one per bench run: given, so the suite keeps no key
 * file beside the temporary data directory.
 */
const CALLBACK_SECRETS_KEY = randomBytes(32).toString('hex');

/** Starts the repo's built suite; resolves at its "ready:" line with its URLs and start time. */
function startSuite(repo, dataDir) {
  const started = performance.now();
  const child = spawn(process.execPath, ['infra/suite/dist/main.js'], {
    cwd: repo,
    env: {
      PATH: process.env.PATH,
      PORT: '0',
      ADMIN_PORT: '0',
      SMSC_CONTROL_PORT: '0',
      EMBEDDED_DATA_DIR: dataDir,
      CALLBACK_SECRETS_KEY,
      LOG_LEVEL: 'error',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready:\n${output}`)), 180_000);
    const onData = (chunk) => {
      output += chunk;
      const match = BANNER.exec(output);
      if (!match) return;
      clearTimeout(timer);
      const [, adminUrl, adminToken, controlUrl, gatewayUrl] = match;
      resolve({
        readyMs: performance.now() - started,
        adminUrl,
        adminToken,
        controlUrl,
        gatewayUrl,
        async stop() {
          child.kill('SIGTERM');
          await exited;
        },
      });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    exited.then((code) => reject(new Error(`exited with ${code}:\n${output}`)));
  });
}

/** Submits the simulator has received to numbers starting with `prefix`, once `count` arrived. */
async function submitsTo(controlUrl, prefix, count, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const all = await json(`${controlUrl}/submits`);
    const mine = all.filter((s) => s.destinationAddr.replace(/^\+/, '').startsWith(prefix));
    if (mine.length >= count || Date.now() > deadline) return mine;
    await new Promise((r) => setTimeout(r, 250));
  }
}

function submitRate(submits) {
  const times = submits.map((s) => Date.parse(s.receivedAt)).sort((a, b) => a - b);
  const seconds = (times.at(-1) - times[0]) / 1000;
  return { submits: times.length, perSecond: Math.round((times.length - 1) / seconds) };
}

function numberedBodies(prefix) {
  let n = 0;
  return () => {
    n += 1;
    const to = `${prefix}${String(n).padStart(4, '0')}`;
    return JSON.stringify({ to, from: 'BENCH', message: 'Benchmark message' });
  };
}

/** Send-API accepts, then the delivery of a backlog accepted while binds were refused. */
async function smsPath(suite) {
  const headers = {
    authorization: `Bearer ${suite.adminToken}`,
    'content-type': 'application/json',
  };
  await json(`${suite.adminUrl}/internal/v1/accounts`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      name: 'bench-fast',
      password: 'bench-password-1',
      permissions: ['sms'],
      rateLimit: { perSecond: 100_000, burst: 100_000 },
      smsThroughputPerSecond: 10_000,
    }),
  });
  await new Promise((r) => setTimeout(r, 2000));
  const send = (prefix, count) =>
    load({
      url: `${suite.gatewayUrl}/v1/sms/send`,
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from('bench-fast:bench-password-1').toString('base64')}`,
        'content-type': 'application/json',
      },
      body: numberedBodies(prefix),
      count,
      concurrency: CONCURRENCY,
      maxSeconds: 120,
    });
  const accepts = await send('+4670200', SEND_COUNT);
  // Only what was accepted (202) is submitted; an overloaded database answers some 429/503.
  const accepted = (result) => result.statuses[202] ?? 0;
  const live = submitRate(await submitsTo(suite.controlUrl, '4670200', accepted(accepts), 180_000));

  // The backlog: accepted while the simulator refuses binds, delivered once it lets them in.
  const control = (path, body) =>
    json(`${suite.controlUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  await control('/refuse-binds', { refuse: true });
  await control('/stop-binds', {});
  const backlogAccepts = await send('+4670400', BACKLOG);
  await control('/refuse-binds', { refuse: false });
  const backlog = submitRate(
    await submitsTo(suite.controlUrl, '4670400', accepted(backlogAccepts), 300_000),
  );
  return { accepts, live, backlogAccepts, backlog };
}

async function measure(name, repo) {
  const db = await databaseStartup(repo);
  const work = await databaseWork(repo);
  const parent = await mkdtemp(join(tmpdir(), 'bench-embedded-suite-'));
  await chmod(parent, 0o755);
  try {
    const dataDir = join(parent, 'data');
    const fresh = await startSuite(repo, dataDir);
    await fresh.stop();
    const suite = await startSuite(repo, dataDir);
    try {
      const sms = await smsPath(suite);
      return { name, db, work, freshReadyMs: fresh.readyMs, restartReadyMs: suite.readyMs, sms };
    } finally {
      await suite.stop();
    }
  } finally {
    await rm(parent, { recursive: true, force: true });
  }
}

export async function run() {
  const subjects = [['this checkout', THIS_REPO]];
  if (process.env.BENCH_COMPARE_REPO) {
    const compared = [
      `compared: ${process.env.BENCH_COMPARE_REPO}`,
      process.env.BENCH_COMPARE_REPO,
    ];
    if (process.env.BENCH_COMPARE_FIRST) subjects.unshift(compared);
    else subjects.push(compared);
  }
  const results = [];
  for (const [name, repo] of subjects) results.push(await measure(name, repo));
  const ms = (v) => Math.round(v);
  return [
    {
      title: `Embedded database start-up (ms; database alone: median of ${DB_ROUNDS})`,
      rows: results.map((r) => ({
        name: r.name,
        'database init (empty dir)': ms(r.db.init),
        'database restart (existing data)': ms(r.db.restart),
        'suite to ready: (fresh data dir)': ms(r.freshReadyMs),
        'suite to ready: (restart)': ms(r.restartReadyMs),
      })),
    },
    {
      title: `Database alone: ${TRANSACTIONS} transactions (insert, update, select), 16 concurrent, the repo's pool options`,
      rows: results.map((r) => ({
        name: r.name,
        'transactions/s': Math.round(r.work.perSecond),
        'Node CPU ms per 1000 transactions': Math.round(r.work.cpuMsPer1000),
      })),
    },
    {
      title: `SMS path on the embedded suite (${SEND_COUNT} sends, ${CONCURRENCY} concurrent; backlog ${BACKLOG} accepted while binds were refused)`,
      rows: results.map((r) => ({
        name: r.name,
        'send accepts/s': r.sms.accepts.perSecond,
        'send p50 ms': r.sms.accepts.p50,
        'send p99 ms': r.sms.accepts.p99,
        statuses: r.sms.accepts.statuses,
        'submits/s during sends': r.sms.live.perSecond,
        'backlog accepts/s': r.sms.backlogAccepts.perSecond,
        'backlog statuses': r.sms.backlogAccepts.statuses,
        'backlog submits/s (first to last)': r.sms.backlog.perSecond,
        'backlog submits': r.sms.backlog.submits,
      })),
    },
  ];
}

// What the benchmarks stand on. Servers under test run in child processes, so the load generator
// does not share their CPU time slice of the event loop; each child is killed when the benchmark
// ends. Databases are scratch ones, dropped after the run.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { startPrivateKafka } from '@msg/kafka';
import pg from 'pg';

const REPO = fileURLToPath(new URL('..', import.meta.url));

/** Starts `node <script>` from the repository root and resolves once `ready` matches its output. */
export function startProcess(args, env, ready, timeoutMs = 120_000) {
  const child = spawn(process.execPath, args, {
    cwd: REPO,
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const stop = () => child.kill('SIGTERM');
  // Without a pattern to wait for, the caller checks readiness itself (e.g. waitHealthy).
  if (ready === null)
    return Promise.resolve({ match: [], output: () => output, stop, pid: child.pid });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready in time:\n${output}`)), timeoutMs);
    const onData = (chunk) => {
      output += chunk;
      const match = ready.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ match, output: () => output, stop, pid: child.pid });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${output}`)));
  });
}

/** A TCP port free right now on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** Polls `${url}/healthz` until it answers 200. */
export async function waitHealthy(url, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`${url} not healthy in time`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Postgres server the benchmarks use; each run works in a scratch database of its own. */
export const SERVER_URL =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** Kafka the deployed-shape benchmarks use. */
export const BROKERS = process.env.BENCH_KAFKA_BROKERS ?? '127.0.0.1:9092';

/**
 * Runs `run(brokers, kafka)` on the broker BENCH_KAFKA_BROKERS names (kafka undefined), or else
 * on a private one (kafka: its PrivateKafka handle), stopped and wiped afterwards: on the shared
 * broker another suite's members join the same consumer groups and take this run's messages, and
 * its topics still hold earlier runs' messages, which a new consumer group reads first.
 */
export async function withKafka(run) {
  if (process.env.BENCH_KAFKA_BROKERS) return run(BROKERS, undefined);
  const kafka = await startPrivateKafka();
  try {
    return await run(kafka.brokers, kafka);
  } finally {
    await kafka.stop();
  }
}

const USER_HZ = 100;

/** A process's command name and CPU seconds (user + system) so far; null once it has ended. */
export function processStat(pid) {
  let stat;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // utime and stime are fields 14 and 15; the command name before them may contain spaces.
  const command = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
  const [utime, stime] = stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .slice(11, 13);
  return { command, cpuSeconds: (Number(utime) + Number(stime)) / USER_HZ };
}

export const processCpuSeconds = (pid) => processStat(pid)?.cpuSeconds ?? 0;

/**
 * CPU seconds spent so far by the whole machine and by each process on it. Throughput on this
 * shared VM drifts by ±25 % between identical runs, and during a delivery run every core is busy,
 * so a rate only says how the two cores were shared; CPU per message and process over the same
 * window says where the work is.
 */
export function cpuSnapshot() {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  // Busy time of this VM: not idle, iowait (4th, 5th) or steal (8th: the host running others).
  const [user, nice, system, , , irq, softirq] = fields.map(Number);
  const processes = new Map();
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    const stat = processStat(pid);
    if (stat) processes.set(Number(pid), stat);
  }
  return { machine: (user + nice + system + irq + softirq) / USER_HZ, processes };
}

/** Runs `run(databaseUrl)` in a new database on SERVER_URL, dropped afterwards whatever happens. */
export async function withDatabase(run) {
  const name = `bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: SERVER_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  try {
    return await run(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

/** fetch that throws on a non-2xx answer and parses the JSON body (undefined when empty). */
export async function json(url, options = {}) {
  const res = await fetch(url, options);
  const text = await res.text();
  if (!res.ok) throw new Error(`${options.method ?? 'GET'} ${url}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

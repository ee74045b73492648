#!/usr/bin/env node
// The README's first command, proved: starts the platform from this checkout exactly as a new user
// does (`pnpm install && pnpm start`, default settings, data on disk in .data/postgres), waits until
// it prints `ready: <url>`, then checks the main paths through the gateway, stops it with SIGTERM,
// starts it again and finds the same SMS. .ci/run runs it before the tests.
//
//   node infra/smoke.mjs             # free ports are picked; PORT, ADMIN_PORT, SMSC_CONTROL_PORT
//                                    # in the environment are used instead when set
//
// Bounded: every wait has a deadline and the whole run is cut at SMOKE_TIMEOUT_MS (default 10 min).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const REPO = fileURLToPath(new URL('..', import.meta.url));
/**
 * The embedded PostgreSQL's lock file: the server runs in a process group of its own (so Ctrl-C
 * reaches only the suite, which stops it last), so the group check below does not see it; it has
 * exited when this file is gone.
 */
const POSTGRES_LOCK = fileURLToPath(new URL('../.data/postgres/postmaster.pid', import.meta.url));
const FIRST_COMMAND = 'pnpm install && pnpm start';
const TOTAL_MS = Number(process.env.SMOKE_TIMEOUT_MS ?? 600_000);
const START_MS = 240_000;
const STOP_MS = 40_000;
const PATH_MS = 60_000;

const demo = {
  username: 'smoke',
  password: `pw-${randomBytes(9).toString('base64url')}`,
  apiKey: `smoke_${randomBytes(18).toString('base64url')}`,
};

const check = (what) => process.stdout.write(`smoke: ${what}\n`);

function fail(message) {
  process.stderr.write(`smoke: FAILED: ${message}\n`);
  // The whole process group: pnpm, the shell under it and the platform.
  for (const platform of running) process.kill(-platform.pid, 'SIGKILL');
  process.exit(1);
}

/** A port nothing listens on now (the platform binds it a moment later). */
async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function until(what, timeoutMs, attempt) {
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    last = await attempt().catch((error) => ({ error: String(error) }));
    if (last?.done) return last.value;
    await new Promise((r) => setTimeout(r, 250));
  }
  return fail(`${what} not within ${timeoutMs} ms (last: ${JSON.stringify(last)})`);
}

const running = new Set();

function groupAlive(pgid) {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs the README's first command in its own process group, so SIGTERM reaches pnpm and the
 * platform under it as Ctrl-C would. Resolves with the gateway URL of the `ready:` line.
 */
async function start(env) {
  const child = spawn('sh', ['-c', FIRST_COMMAND], {
    cwd: REPO,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  running.add(child);
  let output = '';
  const exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    });
  });
  const ready = new Promise((resolve) => {
    const onData = (chunk) => {
      output += chunk;
      const match = /^ready: (\S+)$/m.exec(output);
      if (match) resolve(match[1]);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
  });
  let started = false;
  let timer;
  const url = await Promise.race([
    ready,
    exited.then(({ code, signal }) => {
      if (!started) fail(`\`${FIRST_COMMAND}\` exited with ${code ?? signal}:\n${output}`);
    }),
    new Promise((resolve) => {
      timer = setTimeout(resolve, START_MS);
    }).then(() => {
      if (!started) fail(`no "ready:" line within ${START_MS} ms:\n${output}`);
    }),
  ]);
  started = true;
  clearTimeout(timer);
  // The shell running `a && b` dies of the signal itself, so its exit status says nothing: what
  // counts is that every process of the group ends by itself in time (the restart then shows
  // that the data was closed cleanly).
  const stop = async () => {
    const started = Date.now();
    process.kill(-child.pid, 'SIGTERM');
    while (groupAlive(child.pid) || existsSync(POSTGRES_LOCK)) {
      if (Date.now() - started > STOP_MS) {
        if (groupAlive(child.pid)) process.kill(-child.pid, 'SIGKILL');
        fail(`still running ${STOP_MS} ms after SIGTERM (or ${POSTGRES_LOCK} left):\n${output}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    await exited;
    return Date.now() - started;
  };
  return { url, stop, output: () => output };
}

async function api(url, path, init = {}) {
  const res = await fetch(`${url}${path}`, { ...init, signal: AbortSignal.timeout(15_000) });
  const text = await res.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, body, headers: res.headers };
}

const basic = `Basic ${Buffer.from(`${demo.username}:${demo.password}`).toString('base64')}`;
const json = (body, headers = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

function expectStatus(what, res, status) {
  if (res.status !== status)
    fail(`${what}: expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

async function smsDelivered(url, messageId) {
  return until(`SMS ${messageId} delivered`, PATH_MS, async () => {
    const res = await api(url, `/v1/sms/${messageId}`, { headers: { authorization: basic } });
    return { done: res.status === 200 && res.body.status === 'delivered', value: res.body, res };
  });
}

async function main() {
  const overall = setTimeout(() => fail(`the whole smoke run took over ${TOTAL_MS} ms`), TOTAL_MS);
  overall.unref();
  const env = {
    PORT: process.env.PORT ?? String(await freePort()),
    ADMIN_PORT: process.env.ADMIN_PORT ?? String(await freePort()),
    SMSC_CONTROL_PORT: process.env.SMSC_CONTROL_PORT ?? String(await freePort()),
    DEMO_USERNAME: demo.username,
    DEMO_PASSWORD: demo.password,
    DEMO_API_KEY: demo.apiKey,
  };
  check(
    `starting \`${FIRST_COMMAND}\` in ${REPO} (gateway port ${env.PORT}, data in .data/postgres)`,
  );
  let startedAt = Date.now();
  let platform = await start(env);
  check(`"ready: ${platform.url}" printed after ${Date.now() - startedAt} ms`);
  const readyz = await api(platform.url, '/readyz');
  expectStatus('gateway /readyz after the ready line', readyz, 200);
  check('gateway /readyz answers 200');

  // ACME: the demo account's registered sender id (infra/suite DEMO_SENDER_ID), its only one.
  const sent = expectStatus(
    'POST /v1/sms/send',
    await api(
      platform.url,
      '/v1/sms/send',
      json({ to: '0701234567', from: 'ACME', message: 'Smoke test' }, { authorization: basic }),
    ),
    202,
  );
  check(`SMS accepted: ${sent.messageId}`);
  await smsDelivered(platform.url, sent.messageId);
  check(`SMS ${sent.messageId} is delivered`);

  const token = expectStatus(
    'POST /v1/oauth/token',
    await api(
      platform.url,
      '/v1/oauth/token',
      json({
        client_id: demo.username,
        client_secret: demo.apiKey,
        grant_type: 'client_credentials',
      }),
    ),
    200,
  ).access_token;
  check('bearer token issued for the demo API key');
  const batchBody = {
    batch: {
      sms_config: { sender_id: 'ACME', message_template: 'Hi {{name}}' },
      recipients: [
        { phone_number: '+46701234567', field_message: { name: 'Ann' } },
        { phone_number: '+46701234568', field_message: { name: 'Bo' } },
      ],
    },
  };
  const created = expectStatus(
    'POST /v1/batches (gzip)',
    await api(platform.url, '/v1/batches', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'content-encoding': 'gzip',
      },
      body: gzipSync(JSON.stringify(batchBody)),
    }),
    202,
  );
  const batchId = created.id;
  check(`batch accepted (gzip body, bearer token): ${batchId}`);
  await until(`batch ${batchId} completed`, PATH_MS, async () => {
    const res = await api(platform.url, `/v1/batches/${batchId}/poll`, {
      headers: { authorization: `Bearer ${token}` },
    });
    return { done: res.body?.batch_status_summary?.status === 'completed', res };
  });
  check(`batch ${batchId} is completed`);

  const lookup = expectStatus(
    'GET /v1/numbers/46701234567',
    await api(platform.url, '/v1/numbers/46701234567', { headers: { authorization: basic } }),
    200,
  );
  check(`number lookup answered (${JSON.stringify(lookup).slice(0, 80)}...)`);

  // A real call: speech in its worker, SIP and RTP to the suite's SIP callee (a listening human).
  const call = expectStatus(
    'POST /txt2voice/v1/messages',
    await api(
      platform.url,
      '/txt2voice/v1/messages',
      json({ to: '+46701740605', text: 'Smoke test', play_count: 1 }, { authorization: basic }),
    ),
    202,
  );
  check(`voice message accepted: ${call.transaction_id}`);
  const called = await until(`voice message ${call.transaction_id} finished`, PATH_MS, async () => {
    const res = await api(platform.url, `/txt2voice/v1/messages/${call.transaction_id}`, {
      headers: { authorization: basic },
    });
    return { done: res.status === 200 && res.body.status !== 'accepted', value: res.body, res };
  });
  if (called.status !== 'completed') fail(`the voice call ended ${JSON.stringify(called)}`);
  check(`voice message ${call.transaction_id} completed (${called.duration_seconds} s)`);

  check(`stopped with SIGTERM: every process gone after ${await platform.stop()} ms`);

  startedAt = Date.now();
  platform = await start(env);
  check(`started again: "ready: ${platform.url}" after ${Date.now() - startedAt} ms`);
  const again = expectStatus(
    'GET /v1/sms/{id} after the restart',
    await api(platform.url, `/v1/sms/${sent.messageId}`, { headers: { authorization: basic } }),
    200,
  );
  if (again.status !== 'delivered') fail(`after the restart the SMS is ${again.status}`);
  check(`after the restart SMS ${sent.messageId} is still there and delivered`);
  check(`stopped with SIGTERM: every process gone after ${await platform.stop()} ms`);
  check('all smoke checks passed');
}

await main();

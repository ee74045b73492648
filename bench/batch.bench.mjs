// Batch intake (POST /v1/batches) on real Postgres and Kafka, the batch service as its own process
// (services/batch/dist/main.js, the deployed shape):
//  1. 1,000,000 recipients, the same 160-character message, gzip: time to 202 (every recipient
//     row exists then, by design: COPY inside the create transaction), a count of the rows, time
//     until every message is expanded (dry_run, polling /v1/batches/{id}/poll until completed),
//     peak RSS of the batch process (VmHWM) after the 202 and at the end;
//  2. the unique-message variant at 100,000 (template "{{text}}", a unique 160-character text per
//     recipient);
//  beside each, the floor: bare gunzip + JSON.parse of the same body in this process.
// A fresh batch process per case, so each VmHWM is that case's own peak. Bounded: one create per
// case, expansion awaited at most EXPAND_TIMEOUT_MS.
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { hashSecret } from '@msg/auth';
import { createLogger } from '@msg/logger';
import { accountState } from '@msg/testing';
import pg from 'pg';
import { createKafkaBus } from '../packages/bus/dist/index.js';
import { ACCOUNT_STATE_EVENT, makeEvent, Topics } from '../packages/contracts/dist/index.js';
import { BROKERS, freePort, json, startProcess, waitHealthy, withDatabase } from './processes.mjs';

const EXPAND_TIMEOUT_MS = Number(process.env.BENCH_BATCH_EXPAND_TIMEOUT_MS ?? 300_000);
const JWT = { kid: 'bench-1', secret: randomBytes(32).toString('hex') };
const API_KEY = `bench-${randomBytes(12).toString('hex')}`;
const TEXT_160 = 'Benchmark message. '.repeat(9).slice(0, 160);

/** The createBatch JSON text, built as one string of parts (no million-object array here). */
export function batchJson(count, unique, dryRun = true) {
  const parts = [
    JSON.stringify({
      sms_config: { sender_id: 'BENCH', message_template: unique ? '{{text}}' : TEXT_160 },
      dry_run: dryRun,
    }).replace(/}$/, ',"recipients":['),
  ];
  for (let i = 0; i < count; i += 1) {
    const phone = `+467${String(i).padStart(8, '0')}`;
    const fields = unique
      ? `,"field_message":{"text":"${`${i} `.padEnd(10, '-')}${randomBytes(113).toString('base64').slice(0, 150)}"}`
      : '';
    parts.push(`${i === 0 ? '' : ','}{"phone_number":"${phone}"${fields}}`);
  }
  parts.push(']');
  return `{"batch":${parts.join('')}}}`;
}

/**
 * POST /v1/batches with a gzipped createBatch body; `ms` is the time to the whole answer (the
 * status and its JSON body).
 */
export async function postBatch(baseUrl, bearer, body) {
  const started = performance.now();
  const res = await fetch(`${baseUrl}/v1/batches`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${bearer}`,
      'content-type': 'application/json',
      'content-encoding': 'gzip',
    },
    body,
  });
  const answer = await res.json();
  return { status: res.status, answer, ms: Math.round(performance.now() - started) };
}

const peakRssMb = (pid) => {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Math.round(Number(match[1]) / 1024) : null;
};

function floor(body) {
  const started = performance.now();
  const parsed = JSON.parse(gunzipSync(body).toString('utf8'));
  const ms = performance.now() - started;
  if (parsed.batch.recipients.length < 1) throw new Error('empty');
  return Math.round(ms);
}

export async function publishAccount(bus, name) {
  const account = accountState({
    name,
    apiKeys: [
      { id: randomUUID(), hash: await hashSecret(API_KEY), createdAt: new Date().toISOString() },
    ],
    permissions: ['batch_sms'],
    smsThroughputPerSecond: 100_000,
  });
  await bus.publish(Topics.accounts, [
    { key: account.id, value: makeEvent(ACCOUNT_STATE_EVENT, account, { accountId: account.id }) },
  ]);
  return account;
}

export async function token(baseUrl, name) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await fetch(`${baseUrl}/v1/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: name, client_secret: API_KEY }),
    });
    if (res.ok) return (await res.json()).access_token;
    // The directory may not have read the account yet.
    if (Date.now() > deadline) throw new Error(`token: ${res.status} ${await res.text()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The batch service as its own process on `databaseUrl`, healthy. */
export async function startBatch(databaseUrl) {
  const port = await freePort();
  const batch = await startProcess(
    ['services/batch/dist/main.js'],
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      KAFKA_BROKERS: BROKERS,
      JWT_KEYS: `${JWT.kid}:${JWT.secret}`,
      JWT_ACTIVE_KID: JWT.kid,
      LOG_LEVEL: 'info',
    },
    /"listening"/,
  );
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitHealthy(baseUrl);
  return { batch, baseUrl };
}

async function runCase(databaseUrl, bus, { name, count, unique }) {
  const text = batchJson(count, unique);
  const body = gzipSync(Buffer.from(text));
  const inflatedMb = (Buffer.byteLength(text) / 1048576).toFixed(1);
  const floorMs = floor(body);
  const { batch, baseUrl } = await startBatch(databaseUrl);
  try {
    const accountName = `bench-batch-${randomBytes(3).toString('hex')}`;
    await publishAccount(bus, accountName);
    const bearer = await token(baseUrl, accountName);
    const rssBefore = peakRssMb(batch.pid);
    const started = performance.now();
    const { status, answer, ms: acceptedMs } = await postBatch(baseUrl, bearer, body);
    if (status !== 202) throw new Error(`create: ${status} ${JSON.stringify(answer)}`);
    const rssAt202 = peakRssMb(batch.pid);
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    const { rows } = await db.query(
      'SELECT count(*)::int AS n FROM batch.message WHERE batch_id = $1',
      [answer.id],
    );
    await db.end();
    if (rows[0].n !== count) throw new Error(`rows: ${rows[0].n} of ${count}`);
    // Expansion (dry run: every message rendered, counted and decided, nothing sent).
    let summary;
    for (;;) {
      summary = (
        await json(`${baseUrl}/v1/batches/${answer.id}/poll`, {
          headers: { authorization: `Bearer ${bearer}` },
        })
      ).batch_status_summary;
      if (['completed', 'failed'].includes(summary.status)) break;
      if (performance.now() - started > EXPAND_TIMEOUT_MS) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    const expandedMs = performance.now() - started;
    const decided = summary.submitted_messages + summary.failed_messages;
    return {
      name,
      recipients: count,
      'gzip MB': (body.length / 1048576).toFixed(1),
      'inflated MB': inflatedMb,
      'floor: gunzip + JSON.parse ms': floorMs,
      'time to 202 ms': acceptedMs,
      'rows at 202': rows[0].n,
      'all expanded ms':
        summary.status === 'completed'
          ? Math.round(expandedMs)
          : `not within ${EXPAND_TIMEOUT_MS / 1000}s (${decided}/${count}, ${summary.status})`,
      'peak RSS MB (idle / at 202 / end)': `${rssBefore} / ${rssAt202} / ${peakRssMb(batch.pid)}`,
    };
  } finally {
    batch.stop();
    await new Promise((r) => setTimeout(r, 1000));
  }
}

export async function run() {
  return withDatabase(async (databaseUrl) => {
    const logger = createLogger({ service: 'bench', level: 'error' });
    const bus = createKafkaBus({ brokers: BROKERS.split(','), clientId: 'bench-batch', logger });
    await bus.ensureTopics([{ topic: Topics.accounts, compacted: true }]);
    try {
      const rows = [];
      for (const scenario of [
        { name: 'same 160-character message', count: 1_000_000, unique: false },
        { name: 'unique 160-character message ({{text}})', count: 100_000, unique: true },
      ]) {
        rows.push(await runCase(databaseUrl, bus, scenario));
      }
      return [
        {
          title:
            'Batch create (POST /v1/batches, gzip JSON, dry_run) on Postgres + Kafka, batch service as its own process',
          rows,
        },
      ];
    } finally {
      await bus.close();
    }
  });
}

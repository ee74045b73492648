// A batch of BATCH_RECIPIENTS (default 1,000,000) recipients submitted end to end — not a dry run —
// on real Postgres and Kafka: the suite process (every service) bound to the SMSC simulator, its
// own process, with one bind at BIND_TPS (default 2,000) submit_sm per second. The account's own
// limit is lifted above the bind's, so the bind's configured rate is what paces the batch.
// Records: time to 202, the submit rate the simulator saw against BIND_TPS (ratio), RSS of the
// suite and of the simulator sampled every SAMPLE_MS (min / max / last while submitting: memory
// flat means max close to last and no climb), and whether the batch completed.
// Kafka is a broker of the run's own (startPrivateKafka of @msg/kafka; KAFKA_LIBS can point at
// another checkout's jars). Bounded: the batch is awaited at most BATCH_TIMEOUT_MS (default twice
// its time at BIND_TPS plus two minutes). Try it small first:
// BATCH_RECIPIENTS=50000 pnpm bench batch-million
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { startPrivateKafka } from '@msg/kafka';
import { batchJson, postBatch } from './batch.bench.mjs';
import { freePort, json, startProcess, waitHealthy, withDatabase } from './processes.mjs';

const RECIPIENTS = Number(process.env.BATCH_RECIPIENTS ?? 1_000_000);
const BIND_TPS = Number(process.env.BIND_TPS ?? 2000);
const BIND_WINDOW = Number(process.env.BIND_WINDOW ?? 50);
const SAMPLE_MS = Number(process.env.SAMPLE_MS ?? 5000);
const BATCH_TIMEOUT_MS = Number(
  process.env.BATCH_TIMEOUT_MS ?? Math.round((2 * RECIPIENTS * 1000) / BIND_TPS + 120_000),
);
const PASSWORD = 'bench-password-1';

const say = (line) => process.stderr.write(`[batch-million] ${line}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Resident set size of a process in MB, null once it has gone. */
function rssMb(pid) {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Math.round(Number(match[1]) / 1024) : null;
  } catch {
    return null;
  }
}

const spread = (values) =>
  values.length === 0 ? '-' : `${Math.min(...values)} / ${Math.max(...values)} / ${values.at(-1)}`;

async function startSimulator() {
  const [port, controlPort] = [await freePort(), await freePort()];
  const smsc = await startProcess(
    ['infra/smsc-simulator/dist/main.js'],
    {
      SMSC_PORT: String(port),
      CONTROL_PORT: String(controlPort),
      SMSC_CREDENTIALS: 'bench:bench1',
      RECEIPT_DELAY_MS: '300',
      LOG_LEVEL: 'warn',
    },
    null,
  );
  const controlUrl = `http://127.0.0.1:${controlPort}`;
  await waitHealthy(controlUrl);
  return { smsc, controlUrl, port };
}

async function startSuite(databaseUrl, brokers, smscPort) {
  return startProcess(
    ['infra/suite/dist/main.js'],
    {
      PORT: '0',
      ADMIN_PORT: '0',
      DATABASE_URL: databaseUrl,
      KAFKA_BROKERS: brokers,
      SMSC_BINDS: `smpp://bench:bench1@127.0.0.1:${smscPort}?name=bench&window=${BIND_WINDOW}&tps=${BIND_TPS}`,
      LOG_LEVEL: process.env.SUITE_LOG_LEVEL ?? 'error',
    },
    /Gateway \(public API\)\s+(\S+)[\s\S]*Admin API \(internal\)\s+(\S+)\s+token: (\S+)[\s\S]*ready: /,
    180_000,
  );
}

/** An account allowed batch SMS, its own limits above the bind's; a bearer token of it. */
async function batchAccount(gatewayUrl, adminUrl, adminToken) {
  const name = `benchmillion${Date.now().toString(36)}`;
  const { apiKey } = await json(`${adminUrl}/internal/v1/accounts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      name,
      password: PASSWORD,
      createApiKey: true,
      permissions: ['batch_sms'],
      rateLimit: { perSecond: 1000, burst: 1000 },
      smsThroughputPerSecond: Math.min(10_000, BIND_TPS * 2),
    }),
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    // The batch service learns of the account over accounts.v1: retry until it has.
    const res = await fetch(`${gatewayUrl}/v1/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_id: name,
        client_secret: apiKey,
        grant_type: 'client_credentials',
      }),
    });
    if (res.ok) return (await res.json()).access_token;
    if (Date.now() > deadline) throw new Error(`token: ${res.status} ${await res.text()}`);
    await sleep(500);
  }
}

export async function run() {
  return withDatabase(async (databaseUrl) => {
    // A broker of its own: on the shared one, another run's consumers would take its messages.
    const kafka = await startPrivateKafka();
    const { smsc, controlUrl, port } = await startSimulator();
    let suite;
    try {
      suite = await startSuite(databaseUrl, kafka.brokers, port);
      const [, gatewayUrl, adminUrl, adminToken] = suite.match;
      const bearer = await batchAccount(gatewayUrl, adminUrl, adminToken);
      const body = gzipSync(Buffer.from(batchJson(RECIPIENTS, false, false)));
      const rssIdle = { suite: rssMb(suite.pid), smsc: rssMb(smsc.pid) };

      const started = performance.now();
      const { status, answer: created, ms: acceptMs } = await postBatch(gatewayUrl, bearer, body);
      if (status !== 202) throw new Error(`create: ${status} ${JSON.stringify(created)}`);
      say(`accepted in ${acceptMs} ms (${(body.length / 1048576).toFixed(1)} MB gzip)`);

      // Samples while the batch runs: RSS of both processes, submits at the simulator.
      const samples = [];
      let summary;
      for (;;) {
        const stats = await json(`${controlUrl}/stats`);
        summary = (
          await json(`${gatewayUrl}/v1/batches/${created.id}/poll`, {
            headers: { authorization: `Bearer ${bearer}` },
          })
        ).batch_status_summary;
        const sample = {
          at: performance.now(),
          submits: stats.submits,
          throttled: stats.throttled,
          suite: rssMb(suite.pid),
          smsc: rssMb(smsc.pid),
        };
        samples.push(sample);
        say(
          `${Math.round((sample.at - started) / 1000)}s submits=${sample.submits} decided=${summary.submitted_messages + summary.failed_messages} status=${summary.status} rss suite=${sample.suite} smsc=${sample.smsc} MB`,
        );
        if (['completed', 'failed'].includes(summary.status)) break;
        if (performance.now() - started > BATCH_TIMEOUT_MS) break;
        await sleep(SAMPLE_MS);
      }
      const endMs = Math.round(performance.now() - started);
      // The rate over the samples where submits were flowing (first sample with any to the last).
      const flowing = samples.filter((s) => s.submits > 0);
      const first = flowing[0];
      const last = flowing.at(-1);
      const perSecond =
        first && last && last.at > first.at
          ? Math.round(((last.submits - first.submits) * 1000) / (last.at - first.at))
          : null;
      const finalStats = await json(`${controlUrl}/stats`);
      // A batch that did not complete: what the suite said (SUITE_LOG_LEVEL=warn for more).
      if (summary.status !== 'completed')
        say(`suite output (tail):\n${suite.output().slice(-8000)}`);
      return [
        {
          title: `Batch of ${RECIPIENTS} recipients end to end (not dry run) on Postgres + Kafka, one bind at tps=${BIND_TPS} window=${BIND_WINDOW}, suite and SMSC simulator as their own processes`,
          rows: [
            {
              recipients: RECIPIENTS,
              'gzip MB': (body.length / 1048576).toFixed(1),
              'time to 202 ms': acceptMs,
              status: summary.status,
              'submitted / failed': `${summary.submitted_messages} / ${summary.failed_messages}`,
              'submits at SMSC': finalStats.submits,
              throttled: finalStats.throttled,
              'end ms': endMs,
              'submit/s at SMSC': perSecond,
              'ratio to BIND_TPS': perSecond === null ? '-' : (perSecond / BIND_TPS).toFixed(2),
              'suite RSS MB idle; min / max / last': `${rssIdle.suite}; ${spread(flowing.map((s) => s.suite).filter(Boolean))}`,
              'SMSC RSS MB idle; min / max / last': `${rssIdle.smsc}; ${spread(flowing.map((s) => s.smsc).filter(Boolean))}`,
            },
          ],
        },
      ];
    } finally {
      suite?.stop();
      smsc.stop();
      await sleep(2000);
      await kafka.stop();
    }
  });
}

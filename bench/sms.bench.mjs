// The SMS delivery path on real Postgres and Kafka (the deployed shape; the suite process runs
// every service with the SMSC simulator):
//  1. send API throughput and latency through the gateway, beside a bare express endpoint behind
//     the same gateway process;
//  2. SMPP submit throughput to the simulator with the account's throughput limit lifted;
//  3. how closely a configured 100 SMS/s account limit is kept.
import { load } from './load.mjs';
import {
  freePort,
  json,
  startProcess,
  waitHealthy,
  withDatabase,
  withKafka,
} from './processes.mjs';

// Smaller counts for a smoke run: BENCH_SEND_COUNT=100 BENCH_LIMITED_COUNT=50 pnpm bench sms
const SEND_COUNT = Number(process.env.BENCH_SEND_COUNT ?? 3000);
const CONCURRENCY = 32;
const LIMITED_COUNT = Number(process.env.BENCH_LIMITED_COUNT ?? 600);

/** Waits until the simulator has seen `count` submits to numbers starting with `prefix`. */
async function submitsTo(controlUrl, prefix, count, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const all = await json(`${controlUrl}/submits`);
    const mine = all.filter((s) => s.destinationAddr.replace(/^\+/, '').startsWith(prefix));
    if (mine.length >= count || Date.now() > deadline) return mine;
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** A request body per call, each to the next number of a range (so submits can be told apart). */
function numberedBodies(prefix, message) {
  let n = 0;
  return () => {
    n += 1;
    return JSON.stringify({ to: `${prefix}${String(n).padStart(4, '0')}`, from: 'BENCH', message });
  };
}

function rate(submits) {
  const times = submits.map((s) => Date.parse(s.receivedAt)).sort((a, b) => a - b);
  const seconds = (times.at(-1) - times[0]) / 1000;
  return {
    submits: times.length,
    seconds: seconds.toFixed(2),
    perSecond: Math.round((times.length - 1) / seconds),
  };
}

// A private broker unless BENCH_KAFKA_BROKERS names one (withKafka): on the shared broker,
// sms.outbound.v1 still holds earlier runs' messages, which the connector submits first, among the
// limited account's, and another suite's members take this run's messages.
export async function run() {
  return withKafka((brokers) => runOn(brokers));
}

async function runOn(brokers) {
  return withDatabase(async (databaseUrl) => {
    const suite = await startProcess(
      ['infra/suite/dist/main.js'],
      {
        PORT: '0',
        ADMIN_PORT: '0',
        SMSC_CONTROL_PORT: '0',
        DATABASE_URL: databaseUrl,
        KAFKA_BROKERS: brokers,
        LOG_LEVEL: 'error',
      },
      /Admin API \(internal\)\s+(\S+)\s+token: (\S+)\s+SMSC simulator control (\S+)[\s\S]*sms (\S+)/,
    );
    const bare = await startProcess(['bench/bare-server.mjs'], {}, /listening (\d+)/);
    const [, adminUrl, adminToken, controlUrl, smsUrl] = suite.match;
    // One gateway process in front of both: the sms service and the bare floor.
    const gatewayPort = await freePort();
    const gateway = await startProcess(
      ['services/gateway/dist/main.js'],
      {
        PORT: String(gatewayPort),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'error',
        UPSTREAM_SMS: smsUrl,
        UPSTREAM_NUMBERS: `http://127.0.0.1:${bare.match[1]}`,
      },
      null,
    );
    const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
    await waitHealthy(gatewayUrl);
    try {
      const headers = { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' };
      const account = async (name, smsThroughputPerSecond) =>
        json(`${adminUrl}/internal/v1/accounts`, {
          method: 'POST',
          headers,
          body: JSON.stringify({
            name,
            password: 'bench-password-1',
            permissions: ['sms'],
            rateLimit: { perSecond: 100_000, burst: 100_000 },
            smsThroughputPerSecond,
          }),
        });
      await account('bench-fast', 10_000);
      await account('bench-limited', 100);
      await new Promise((r) => setTimeout(r, 2000));
      const basic = (name) => `Basic ${Buffer.from(`${name}:bench-password-1`).toString('base64')}`;

      const rows = [];
      const floor = await load({
        url: `${gatewayUrl}/v1/numbers/ping`,
        count: SEND_COUNT,
        concurrency: CONCURRENCY,
      });
      rows.push({ name: 'bare express behind the gateway (floor)', ...floor });
      const send = await load({
        url: `${gatewayUrl}/v1/sms/send`,
        method: 'POST',
        headers: { authorization: basic('bench-fast'), 'content-type': 'application/json' },
        // Same body each time is fine: every request is a new message; numbers vary below.
        body: numberedBodies('+4670200', 'Benchmark message'),
        count: SEND_COUNT,
        concurrency: CONCURRENCY,
      });
      rows.push({ name: 'POST /v1/sms/send via gateway (202, stored + outbox)', ...send });

      const fast = rate(await submitsTo(controlUrl, '4670200', SEND_COUNT, 120_000));
      // Sent faster than the limit, so the connector's pacing is what shapes the submit rate.
      await load({
        url: `${gatewayUrl}/v1/sms/send`,
        method: 'POST',
        headers: { authorization: basic('bench-limited'), 'content-type': 'application/json' },
        body: numberedBodies('+4670300', 'Limited'),
        count: LIMITED_COUNT,
        concurrency: CONCURRENCY,
      });
      const limited = rate(await submitsTo(controlUrl, '4670300', LIMITED_COUNT, 120_000));
      return [
        {
          title: `SMS send API through one gateway process (${SEND_COUNT} requests, ${CONCURRENCY} concurrent; ms)`,
          rows,
        },
        {
          title: 'SMPP submits reaching the simulator (one bind, window 20)',
          rows: [
            { name: 'account limit lifted (10000/s)', ...fast },
            { name: 'account limited to 100/s', ...limited, target: 100 },
          ],
        },
      ];
    } finally {
      gateway.stop();
      suite.stop();
      bare.stop();
      await new Promise((r) => setTimeout(r, 2000));
    }
  });
}

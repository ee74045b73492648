// The SMS delivery path on real Postgres and Kafka (the deployed shape; the suite process runs
// every service with the SMSC simulator):
//  1. send API throughput and latency through the gateway, beside a bare express endpoint behind
//     the same gateway process;
//  2. SMPP submit throughput to the simulator with the account's throughput limit lifted;
//  3. how closely a configured 100 SMS/s account limit is kept.
import { load } from './load.mjs';
import { basic, numberedBodies, startPlatform } from './platform.mjs';
import { json, withDatabase, withKafka } from './processes.mjs';

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
    const platform = await startPlatform({ databaseUrl, brokers, upstreams: ['sms'] });
    const { gatewayUrl, controlUrl } = platform;
    try {
      await platform.account('bench-fast', {
        permissions: ['sms'],
        smsThroughputPerSecond: 10_000,
      });
      await platform.account('bench-limited', {
        permissions: ['sms'],
        smsThroughputPerSecond: 100,
      });
      await new Promise((r) => setTimeout(r, 2000));
      const smsBody = (message) => (to) => ({ to, from: 'BENCH', message });

      const rows = [];
      const floor = await load({
        url: platform.floorUrl,
        count: SEND_COUNT,
        concurrency: CONCURRENCY,
      });
      rows.push({ name: 'bare express behind the gateway (floor)', ...floor });
      const send = await load({
        url: `${gatewayUrl}/v1/sms/send`,
        method: 'POST',
        headers: { authorization: basic('bench-fast'), 'content-type': 'application/json' },
        // Same body each time is fine: every request is a new message; numbers vary below.
        body: numberedBodies('+4670200', smsBody('Benchmark message')),
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
        body: numberedBodies('+4670300', smsBody('Limited')),
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
      await platform.stop();
    }
  });
}

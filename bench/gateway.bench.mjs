// Gateway overhead, in one run: the bare floor, the batch service directly and through the
// gateway, for a plain GET and for the token endpoint (API-key verification from the cache).
// The platform runs as `pnpm start` does (embedded suite), in its own process.
import { load } from './load.mjs';
import { startProcess } from './processes.mjs';

const COUNT = 20_000;
const CONCURRENCY = 32;
const API_KEY = 'bench-api-key-0123456789abcdef';

export async function run() {
  const suite = await startProcess(
    ['infra/suite/dist/main.js'],
    {
      PORT: '0',
      ADMIN_PORT: '0',
      SMSC_CONTROL_PORT: '0',
      EMBEDDED_DATA_DIR: 'memory',
      LOG_LEVEL: 'error',
    },
    /Gateway \(public API\)\s+(\S+)[\s\S]*Admin API \(internal\)\s+(\S+)\s+token: (\S+)[\s\S]*batch (\S+)/,
  );
  const bare = await startProcess(['bench/bare-server.mjs'], {}, /listening (\d+)/);
  const [, gatewayUrl, adminUrl, adminToken, batchUrl] = suite.match;
  try {
    // An account whose rate limit is out of the way: this measures the path, not the limiter.
    const created = await fetch(`${adminUrl}/internal/v1/accounts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'bench',
        permissions: ['batch_sms'],
        rateLimit: { perSecond: 100_000, burst: 100_000 },
      }),
    });
    if (created.status !== 201) throw new Error(`account: ${created.status}`);
    const key = await fetch(`${adminUrl}/internal/v1/accounts/bench/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ apiKey: API_KEY }),
    });
    if (key.status !== 201) throw new Error(`api key: ${key.status}`);
    await new Promise((r) => setTimeout(r, 1000));

    const token = JSON.stringify({ client_id: 'bench', client_secret: API_KEY });
    const json = { 'content-type': 'application/json' };
    const cases = [
      ['bare express GET (floor)', { url: `http://127.0.0.1:${bare.match[1]}/v1/health/batches` }],
      ['batch health, direct', { url: `${batchUrl}/v1/health/batches` }],
      ['batch health, via gateway', { url: `${gatewayUrl}/v1/health/batches` }],
      [
        'token, direct',
        { url: `${batchUrl}/v1/oauth/token`, method: 'POST', headers: json, body: token },
      ],
      [
        'token, via gateway',
        { url: `${gatewayUrl}/v1/oauth/token`, method: 'POST', headers: json, body: token },
      ],
    ];
    const rows = [];
    for (const [name, options] of cases) {
      await load({ ...options, count: 1000, concurrency: CONCURRENCY }); // warm-up
      rows.push({ name, ...(await load({ ...options, count: COUNT, concurrency: CONCURRENCY })) });
    }
    return {
      title: `HTTP through the gateway (${COUNT} requests, ${CONCURRENCY} concurrent, keep-alive; latencies in ms)`,
      rows,
    };
  } finally {
    suite.stop();
    bare.stop();
  }
}

// The deployed shape the request benchmarks (sms, replypath) stand on: the suite process (every
// service and the SMSC simulator) on real Postgres and Kafka, a bare express app as the floor, and
// ONE separate gateway process in front of both, so a service's row and the floor pay the same
// proxy hop. Accounts are made through the admin API, as an operator would.
import { freePort, json, startProcess, waitHealthy } from './processes.mjs';

export const BENCH_PASSWORD = 'bench-password-1';

/** The suite's banner, as infra/suite/src/main.ts prints it: admin API, token, simulators, services. */
const BANNER =
  /Admin API \(internal\)\s+(\S+)\s+token: (\S+)\s+SMSC simulator control (\S+)\s+RBM simulator \(RCS\)\s+(\S+)[^\n]*\n[\s\S]*?\n\s+Services \(direct\)\s+([^\n]*)\n[\s\S]*ready: /;

/**
 * Starts the suite on `databaseUrl` and `brokers` (none: the in-process bus), the bare floor and a
 * gateway whose `UPSTREAM_<SERVICE>` are the suite's services named in `upstreams`; the bare app
 * is the upstream of the `floor` route (a service not under test): `floorUrl`,
 * `GET /v1/<floor>/ping`, reaches it. `suiteEnv`: more settings of the suite. `stop()` ends all
 * three.
 */
export async function startPlatform({
  databaseUrl,
  brokers,
  upstreams,
  floor = 'numbers',
  suiteEnv = {},
}) {
  const suite = await startProcess(
    ['infra/suite/dist/main.js'],
    {
      PORT: '0',
      ADMIN_PORT: '0',
      SMSC_CONTROL_PORT: '0',
      DATABASE_URL: databaseUrl,
      ...(brokers ? { KAFKA_BROKERS: brokers } : {}),
      LOG_LEVEL: 'error',
      ...suiteEnv,
    },
    BANNER,
  );
  const bare = await startProcess(['bench/bare-server.mjs'], {}, /listening (\d+)/);
  const [, adminUrl, adminToken, controlUrl, rbmSimulatorUrl, servicesLine] = suite.match;
  const words = servicesLine.trim().split(/\s+/);
  const serviceUrls = Object.fromEntries(
    words.flatMap((word, i) => (i % 2 === 0 ? [[word, words[i + 1]]] : [])),
  );
  const gatewayPort = await freePort();
  const gateway = await startProcess(
    ['services/gateway/dist/main.js'],
    {
      PORT: String(gatewayPort),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'error',
      ...Object.fromEntries(
        upstreams.map((name) => [
          `UPSTREAM_${name.toUpperCase().replaceAll('-', '_')}`,
          serviceUrls[name],
        ]),
      ),
      [`UPSTREAM_${floor.toUpperCase()}`]: `http://127.0.0.1:${bare.match[1]}`,
    },
    null,
  );
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  const stop = async () => {
    gateway.stop();
    suite.stop();
    bare.stop();
    await new Promise((r) => setTimeout(r, 2000));
  };
  try {
    await waitHealthy(gatewayUrl);
  } catch (error) {
    await stop();
    throw error;
  }
  const adminHeaders = {
    authorization: `Bearer ${adminToken}`,
    'content-type': 'application/json',
  };
  return {
    adminUrl,
    adminToken,
    adminHeaders,
    controlUrl,
    rbmSimulatorUrl,
    serviceUrls,
    gatewayUrl,
    floorUrl: `${gatewayUrl}/v1/${floor}/ping`,
    stop,
    /**
     * An account with `fields` (permissions, scopes, throughput) and the bench password, its
     * request rate lifted (as far as the service allows).
     */
    account: (name, fields) =>
      json(`${adminUrl}/internal/v1/accounts`, {
        method: 'POST',
        headers: adminHeaders,
        body: JSON.stringify({
          name,
          password: BENCH_PASSWORD,
          rateLimit: { perSecond: 100_000, burst: 100_000 },
          ...fields,
        }),
      }),
  };
}

/** The Basic credentials of a bench account. */
export const basic = (name) =>
  `Basic ${Buffer.from(`${name}:${BENCH_PASSWORD}`).toString('base64')}`;

/** A new number of the range on every call: `prefix` and then `width` digits counting up. */
export function numbered(prefix, width) {
  let n = 0;
  return () => {
    n += 1;
    return `${prefix}${String(n).padStart(width, '0')}`;
  };
}

/**
 * A JSON body per call, each to the next number of a range (so submits can be told apart and no
 * two requests share a recipient): `shape(to)` gives the body for one number.
 */
export function numberedBodies(prefix, shape) {
  const next = numbered(prefix, 4);
  return () => JSON.stringify(shape(next()));
}

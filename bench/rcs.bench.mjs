// RCS (issue 13), the suite process on real Postgres (a scratch database) and the in-process bus,
// one separate gateway process in front of rcs and of a bare express floor (bench/platform.mjs):
//  1. Accepted sends: `POST /rcs/v1/messages` (202: validated, stored with its outbox row, queued
//     on rcs.outbound.v1) as the demo agent, each to a recipient of its own, beside `POST` of the
//     same JSON to the bare express route behind the same gateway, in interleaved rounds (ratio
//     of the totals). The rate limit (100/min per client, spec 8.4) is lifted for
//     the run (RCS_RATE_LIMIT_PER_MINUTE): what is measured is the send path, not the limit.
//  2. Fan-out: an agent with five webhooks (five local receivers in this process answering 204);
//     EVENTS dry runs each make exactly one test.rcs.out.delivered, which the rcs fan-out signs per
//     webhook and the notifier POSTs: EVENTS × 5 deliveries, timed from the first send to the last
//     delivery received. Floor: the same number of POSTs of an event-sized signed body sent
//     straight to the same five receivers by a plain keep-alive client at the notifier's
//     concurrency (NOTIFIER_PER_TARGET_CONCURRENCY 4 per target, 20 in all).
// Smaller or larger: BENCH_RCS_COUNT=500 BENCH_RCS_EVENTS=100 pnpm bench rcs
import { createHmac, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import os from 'node:os';
import { load } from './load.mjs';
import { numberedBodies, startPlatform } from './platform.mjs';
import { json, withDatabase } from './processes.mjs';

const COUNT = Number(process.env.BENCH_RCS_COUNT ?? 2000);
const MAX_SECONDS = Number(process.env.BENCH_RCS_MAX_SECONDS ?? 45);
const CONCURRENCY = 32;
const ROUNDS = 4;
const EVENTS = Number(process.env.BENCH_RCS_EVENTS ?? 300);
const FANOUT_TIMEOUT_S = 120;
const WEBHOOKS = 5;
/** The notifier's default per-target concurrency (services/notifier NOTIFIER_PER_TARGET_CONCURRENCY). */
const PER_TARGET = 4;

const load1 = () => os.loadavg()[0].toFixed(1);

export async function run() {
  return withDatabase(async (databaseUrl) => {
    const platform = await startPlatform({
      databaseUrl,
      upstreams: ['rcs'],
      suiteEnv: { RCS_RATE_LIMIT_PER_MINUTE: '1000000', DEMO_RCS_AGENT_ID: 'bench-demo-agent' },
    });
    try {
      const client = await rcsClient(platform);
      return [await sendRates(platform, client), await fanOutRates(platform, client)];
    } finally {
      await platform.stop();
    }
  });
}

/**
 * An account with the `rcs` permission and an API key, allowed on the demo agent (which holds the
 * simulator's credentials) and on a fan-out agent of its own, as an operator sets them up.
 */
async function rcsClient(platform) {
  const { adminUrl, adminHeaders, serviceUrls } = platform;
  const name = 'bench-rcs';
  const apiKey = `bench_${randomBytes(18).toString('base64url')}`;
  const account = await platform.account(name, { permissions: ['rcs'] });
  await json(`${adminUrl}/internal/v1/accounts/${name}/api-keys`, {
    method: 'POST',
    headers: adminHeaders,
    body: JSON.stringify({ apiKey }),
  });
  const agents = `${serviceUrls.rcs}/internal/v1/agents`;
  // rcs refuses an account it has not yet received over accounts.v1 (404): a new one is allowed
  // once it has arrived.
  const arrival = Date.now() + 30_000;
  for (;;) {
    const res = await fetch(`${agents}/bench-demo-agent/accounts/${account.id}`, {
      method: 'PUT',
      headers: { authorization: adminHeaders.authorization },
    });
    if (res.ok) break;
    if (res.status !== 404 || Date.now() > arrival) {
      throw new Error(`allow on bench-demo-agent: ${res.status} ${await res.text()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await json(agents, {
    method: 'POST',
    headers: adminHeaders,
    body: JSON.stringify({
      agent_id: 'bench-fanout',
      display_name: 'Fan-out benchmark',
      accounts: [account.id],
    }),
  });
  const headers = {
    'x-client-id': name,
    'x-api-key': apiKey,
    'content-type': 'application/json',
  };
  // The account reaches rcs over accounts.v1; the first accepted send also caches its key (scrypt).
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await fetch(`${platform.gatewayUrl}/rcs/v1/messages`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        recipient: '+46702019999',
        agent_id: 'bench-demo-agent',
        message: { text: 'warm-up' },
        dry_run: true,
      }),
    });
    if (res.status === 202) break;
    if (Date.now() > deadline) throw new Error(`warm-up send: ${res.status} ${await res.text()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return { headers };
}

// --- 1. accepted sends per second ------------------------------------------------------------

async function sendRates(platform, { headers }) {
  const common = { count: COUNT, concurrency: CONCURRENCY, maxSeconds: MAX_SECONDS };
  const body = numberedBodies('+4670300', (recipient) => ({
    recipient,
    agent_id: 'bench-demo-agent',
    message: { text: 'Benchmark' },
    client_message_id: recipient,
  }));
  const measured = (name, result) => ({ name, ...result, load: load1() });
  // Warm-up, not recorded: the gateway's and the services' code paths compiled, sockets open.
  await load({ ...common, url: platform.floorUrl, method: 'POST', body, count: 300 });
  await load({
    ...common,
    url: `${platform.gatewayUrl}/rcs/v1/messages`,
    method: 'POST',
    headers,
    body,
    count: 100,
  });
  // Interleaved rounds: the load other work puts on the machine falls on both series alike.
  const rows = [];
  const totals = { floor: { requests: 0, seconds: 0 }, rcs: { requests: 0, seconds: 0 } };
  const perRound = { ...common, count: Math.ceil(COUNT / ROUNDS) };
  for (let round = 1; round <= ROUNDS; round += 1) {
    const floorRow = measured(
      `round ${round}: bare express POST behind the gateway (floor)`,
      await load({ ...perRound, url: platform.floorUrl, method: 'POST', body }),
    );
    const rcsRow = measured(
      `round ${round}: POST /rcs/v1/messages (202: stored + outbox, queued)`,
      await load({
        ...perRound,
        url: `${platform.gatewayUrl}/rcs/v1/messages`,
        method: 'POST',
        headers,
        body,
      }),
    );
    for (const [key, row] of [
      ['floor', floorRow],
      ['rcs', rcsRow],
    ]) {
      totals[key].requests += row.requests;
      totals[key].seconds += row.requests / row.perSecond;
    }
    rows.push(floorRow, rcsRow);
  }
  const rate = (t) => Math.round(t.requests / t.seconds);
  const floor = rate(totals.floor);
  return {
    title: `Accepted RCS sends through one gateway process (${COUNT} requests per series or ${MAX_SECONDS} s per round, ${ROUNDS} interleaved rounds, ${CONCURRENCY} concurrent; ms)`,
    rows: [
      ...rows.map((row) => ({
        name: row.name,
        requests: row.requests,
        statuses: row.statuses,
        perSecond: row.perSecond,
        p50: row.p50,
        p99: row.p99,
        'ratio to floor': '',
        load: row.load,
      })),
      ...['floor', 'rcs'].map((key) => ({
        name: key === 'floor' ? 'all rounds: floor' : 'all rounds: POST /rcs/v1/messages',
        requests: totals[key].requests,
        statuses: '',
        perSecond: rate(totals[key]),
        p50: '',
        p99: '',
        'ratio to floor': (rate(totals[key]) / floor).toFixed(2),
        load: '',
      })),
    ],
  };
}

// --- 2. events fanned out per second to five webhooks --------------------------------------

/** Five receivers on 127.0.0.1 that count what they get and answer 204. */
async function startReceivers() {
  let received = 0;
  let last = 0;
  const servers = await Promise.all(
    Array.from(
      { length: WEBHOOKS },
      () =>
        new Promise((resolve) => {
          const server = createServer((req, res) => {
            req.resume();
            req.on('end', () => {
              received += 1;
              last = Date.now();
              res.writeHead(204).end();
            });
          });
          server.listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  return {
    urls: servers.map((s) => `http://127.0.0.1:${s.address().port}/rcs-events`),
    received: () => received,
    lastAt: () => last,
    reset() {
      received = 0;
      last = 0;
    },
    close: () =>
      Promise.all(
        servers.map(
          (s) =>
            new Promise((r) => {
              s.closeAllConnections();
              s.close(r);
            }),
        ),
      ),
  };
}

async function fanOutRates(platform, { headers }) {
  const receivers = await startReceivers();
  try {
    for (const url of receivers.urls)
      await json(`${platform.gatewayUrl}/v1/webhooks`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ agent_id: 'bench-fanout', webhook_url: url }),
      });
    // Warm-up: one event end to end (the notifier's connections, the fan-out's consumer).
    const dryRun = numberedBodies('+4670310', (recipient) => ({
      recipient,
      agent_id: 'bench-fanout',
      message: { text: 'Benchmark' },
      dry_run: true,
    }));
    await json(`${platform.gatewayUrl}/rcs/v1/messages`, {
      method: 'POST',
      headers,
      body: dryRun(),
    });
    await until(() => receivers.received() >= WEBHOOKS, 30);
    receivers.reset();

    const expected = EVENTS * WEBHOOKS;
    const loadBefore = load1();
    const started = Date.now();
    const sends = await load({
      url: `${platform.gatewayUrl}/rcs/v1/messages`,
      method: 'POST',
      headers,
      body: dryRun,
      count: EVENTS,
      concurrency: 8,
      maxSeconds: FANOUT_TIMEOUT_S,
    });
    const sentAt = Date.now();
    const sentIn = (sentAt - started) / 1000;
    const receivedWhenSent = receivers.received();
    await until(() => receivers.received() >= expected, FANOUT_TIMEOUT_S);
    const lastAt = receivers.lastAt() || Date.now();
    const fanOutSeconds = (lastAt - started) / 1000;
    // Once every event exists, the rest drains at the fan-out's own pace, sends no longer bound it.
    const drained = receivers.received() - receivedWhenSent;
    const drainSeconds = Math.max(lastAt - sentAt, 1) / 1000;
    const fannedOut = {
      name: 'dry runs → rcs fan-out → notifier → 5 webhooks',
      deliveries: `${receivers.received()} of ${expected}`,
      statuses: sends.statuses,
      seconds: fanOutSeconds.toFixed(1),
      perSecond: Math.round(receivers.received() / fanOutSeconds),
      note: `${EVENTS} sends accepted in ${sentIn.toFixed(1)} s (${receivedWhenSent} delivered by then); the other ${drained} drained at ${Math.round(drained / drainSeconds)}/s`,
      load: `${loadBefore} → ${load1()}`,
    };

    // The floor: the same deliveries as plain POSTs, straight to the same receivers.
    receivers.reset();
    const secret = randomBytes(32).toString('hex');
    const event = JSON.stringify({
      event_type: 'test.rcs.out.delivered',
      agent_id: 'bench-fanout',
      send_time: new Date().toISOString(),
      event_id: `evt_${randomBytes(16).toString('hex')}`,
      message_id: '00000000-0000-4000-8000-000000000000',
    });
    const floorStarted = Date.now();
    const loadFloorBefore = load1();
    await Promise.all(
      receivers.urls.map((url) =>
        load({
          url,
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-webhook-signature': createHmac('sha256', secret).update(event).digest('hex'),
          },
          body: event,
          count: EVENTS,
          concurrency: PER_TARGET,
          maxSeconds: FANOUT_TIMEOUT_S,
        }),
      ),
    );
    const floorSeconds = (Date.now() - floorStarted) / 1000;
    const floor = {
      name: `plain keep-alive POSTs to the same 5 receivers (floor, ${PER_TARGET} concurrent each)`,
      deliveries: `${receivers.received()} of ${expected}`,
      statuses: { 204: receivers.received() },
      seconds: floorSeconds.toFixed(1),
      perSecond: Math.round(receivers.received() / floorSeconds),
      note: '',
      load: `${loadFloorBefore} → ${load1()}`,
    };
    return {
      title: `Events fanned out to five webhooks (${EVENTS} events × ${WEBHOOKS} webhooks; timed from the first send to the last delivery)`,
      rows: [fannedOut, floor].map((row) => ({
        ...row,
        'ratio to floor': (row.perSecond / floor.perSecond).toFixed(3),
      })),
    };
  } finally {
    await receivers.close();
  }
}

async function until(condition, seconds) {
  const deadline = Date.now() + seconds * 1000;
  while (!condition() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}

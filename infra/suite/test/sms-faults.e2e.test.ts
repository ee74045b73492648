import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import got, { type Got } from 'got';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { type SmsPlatform, startSmsProcesses } from './platform.js';
import {
  byDestination,
  deliveredCount,
  destination,
  readiness,
  type Submit,
  sleep,
  statuses,
  waitFor,
} from './sms-path.js';

/**
 * Faults on the SMS delivery path in the deployed shape (a process per service, real Postgres and
 * Kafka, the SMSC simulator as its own process): the connector killed with messages in flight,
 * the SMSC going away and coming back on the same port, Kafka restarted. Each test counts what
 * the gateway accepted, what reached the SMSC and what was delivered: nothing accepted is lost.
 * Messages are told apart at the SMSC by destination number (one per message).
 */
const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const run = promisify(execFile);
const WINDOW = 10;
const BINDS = 1;
/** Parts per second the connector submits for the account: spreads a batch over a few seconds. */
const ACCOUNT_TPS = 20;

let platform: SmsPlatform;
let gateway: Got;
let smsc: Got;
const account = { name: `smsfault${Date.now().toString(36)}`, password: 'e2e-password-123' };

const say = (line: string) => process.stderr.write(`[sms-faults] ${line}\n`);

/** Sends `count` messages (10 at a time); answers destination (without +) → messageId of each 202. */
async function sendMany(test: number, from: number, count: number): Promise<Map<string, string>> {
  const accepted = new Map<string, string>();
  const refused: Record<string, number> = {};
  let next = from;
  const worker = async () => {
    while (next < from + count) {
      const to = destination(test, next++);
      const res = await gateway
        .post<{ messageId: string }>('v1/sms/send', {
          json: { to, from: 'FAULTS', message: `fault test ${to}` },
        })
        .catch(() => undefined);
      if (res?.statusCode === 202) accepted.set(to.slice(1), res.body.messageId);
      else {
        const key = String(res?.statusCode ?? 'error');
        refused[key] = (refused[key] ?? 0) + 1;
      }
    }
  };
  await Promise.all(Array.from({ length: 10 }, worker));
  if (Object.keys(refused).length > 0) say(`not accepted: ${JSON.stringify(refused)}`);
  return accepted;
}

/** What the running simulator instance recorded, for destinations of test `test`. */
async function submitsOf(test: number): Promise<Submit[]> {
  const all = (await smsc.get<Submit[]>('submits')).body;
  return all.filter((s) => s.destinationAddr.startsWith(`467010${test}`));
}

const kafka = (script: 'start.sh' | 'stop.sh') =>
  run('bash', [`infra/kafka/${script}`], { cwd: REPO, timeout: 120_000 });

function dumpLogsOnFailure() {
  onTestFailed(() => {
    process.stderr.write(`--- process logs (tail) ---\n${platform?.logTail(12_000)}\n`);
  });
}

beforeAll(async () => {
  platform = await startSmsProcesses({
    window: WINDOW,
    smscEnv: { RECEIPT_DELAY_MS: '200', LOG_LEVEL: 'warn' },
    connectorEnv: { SMPP_RECONNECT_MIN_MS: '200', SMPP_RECONNECT_MAX_MS: '2000' },
  });
  smsc = got.extend({
    prefixUrl: platform.smscControlUrl,
    responseType: 'json',
    retry: { limit: 0 },
    timeout: { request: 5000 },
  });
  const created = await got.post(`${platform.adminUrl}/internal/v1/accounts`, {
    headers: { authorization: `Bearer ${platform.adminToken}` },
    json: {
      name: account.name,
      password: account.password,
      permissions: ['sms'],
      rateLimit: { perSecond: 1000, burst: 1000 },
      smsThroughputPerSecond: ACCOUNT_TPS,
    },
    throwHttpErrors: false,
  });
  expect(created.statusCode).toBe(201);
  gateway = got.extend({
    prefixUrl: platform.gatewayUrl,
    username: account.name,
    password: account.password,
    throwHttpErrors: false,
    retry: { limit: 0 },
    responseType: 'json',
    timeout: { request: 10_000 },
  });
  // The account reaches the sms service over accounts.v1; then one message all the way round.
  let warmUp: string | undefined;
  const accepted = await waitFor(async () => {
    const res = await gateway.post<{ messageId: string }>('v1/sms/send', {
      json: { to: destination(0, 0), from: 'FAULTS', message: 'warm-up' },
    });
    warmUp = res.body.messageId;
    return res.statusCode === 202;
  }, 60_000);
  if (!accepted) throw new Error(`no send accepted:\n${platform.logTail()}`);
  const delivered = await waitFor(
    async () => (await statuses(gateway, [warmUp ?? ''])).get(warmUp ?? '')?.status === 'delivered',
    60_000,
  );
  if (!delivered) throw new Error(`warm-up message not delivered:\n${platform.logTail()}`);
}, 180_000);

afterAll(async () => {
  try {
    await platform?.stop();
  } finally {
    // Whatever happened, the shared broker stays up (idempotent when it is running).
    await kafka('start.sh');
  }
}, 120_000);

describe('SMS delivery path under faults, a process per service', () => {
  it('when the connector is killed (SIGKILL) with messages in flight and restarted, then every accepted message reaches the SMSC and is delivered', async () => {
    dumpLogsOnFailure();
    const accepted = await sendMany(1, 0, 60);
    expect(accepted.size).toBe(60);
    let seenAtKill = 0;
    const some = await waitFor(
      async () => {
        seenAtKill = byDestination(await submitsOf(1)).size;
        return seenAtKill >= 10;
      },
      30_000,
      50,
    );
    expect(some).toBe(true);
    await platform.connector.kill('SIGKILL');
    const seenAfterKill = byDestination(await submitsOf(1)).size;
    say(`connector killed: ${seenAtKill} of ${accepted.size} at the SMSC (${seenAfterKill} after)`);
    expect(seenAfterKill).toBeLessThan(accepted.size);

    await platform.connector.start();
    await waitFor(
      async () => byDestination(await submitsOf(1)).size === accepted.size,
      90_000,
      500,
    );
    const ids = [...accepted.values()];
    await waitFor(
      async () => deliveredCount(await statuses(gateway, ids)) === ids.length,
      60_000,
      500,
    );

    const counts = byDestination(await submitsOf(1));
    const duplicates = [...counts.values()].filter((n) => n > 1).length;
    const delivered = deliveredCount(await statuses(gateway, ids));
    say(
      `connector kill: accepted=${accepted.size} reached=${counts.size} delivered=${delivered} duplicates=${duplicates} (not yet at the SMSC at the kill: ${accepted.size - seenAtKill})`,
    );
    expect([...accepted.keys()].filter((d) => !counts.has(d))).toEqual([]);
    expect(delivered).toBe(accepted.size);
    // At-least-once towards the SMSC: only parts in flight at the kill can go twice.
    expect(duplicates).toBeLessThanOrEqual(WINDOW * BINDS);
  }, 180_000);

  it('when the SMSC goes away and comes back on the same port, then readiness follows it and every accepted message reaches one of the instances; what reached the new one is delivered', async () => {
    dumpLogsOnFailure();
    const accepted = await sendMany(2, 0, 60);
    expect(accepted.size).toBe(60);
    const some = await waitFor(
      async () => byDestination(await submitsOf(2)).size >= 10,
      30_000,
      50,
    );
    expect(some).toBe(true);
    // What the old instance recorded (a few more may arrive between this and the kill; those are
    // recognised by the old instance's id prefix in the message's smscMessageIds).
    const allOld = (await smsc.get<Submit[]>('submits')).body;
    const oldPrefix = allOld[0]?.messageId.slice(0, 6) ?? '';
    const oldSnapshot = byDestination(
      allOld.filter((s) => s.destinationAddr.startsWith('4670102')),
    );
    await platform.smsc.kill('SIGKILL');
    const notReady = await waitFor(
      async () => (await readiness(platform.connector.url)) === 503,
      30_000,
    );
    expect(notReady).toBe(true);
    // Accepted while no SMSC is there: they wait for a bind.
    const duringOutage = await sendMany(2, 60, 20);
    for (const [d, id] of duringOutage) accepted.set(d, id);
    await sleep(1000);
    await platform.smsc.start();
    const readyAgain = await waitFor(
      async () => (await readiness(platform.connector.url)) === 200,
      30_000,
    );
    expect(readyAgain).toBe(true);

    const ids = [...accepted.values()];
    const tally = async () => {
      const onNew = byDestination(await submitsOf(2));
      const all = await statuses(gateway, ids);
      const onOld = new Set<string>();
      for (const [d, id] of accepted) {
        const smscIds = all.get(id)?.smscMessageIds ?? [];
        const oldIds = smscIds.length > 0 && smscIds.every((m) => m.startsWith(oldPrefix));
        if (oldSnapshot.has(d) || oldIds) {
          onOld.add(d);
        }
      }
      const lost = [...accepted.keys()].filter((d) => !onNew.has(d) && !onOld.has(d));
      const newNotDelivered = [...onNew.keys()].filter(
        (d) => all.get(accepted.get(d) ?? '')?.status !== 'delivered',
      );
      return { onNew, onOld, all, lost, newNotDelivered };
    };
    await waitFor(
      async () => {
        const now = await tally();
        return now.lost.length === 0 && now.newNotDelivered.length === 0;
      },
      60_000,
      500,
    );
    const { onNew, onOld, all, lost, newNotDelivered } = await tally();
    const duplicates = [...onNew.keys()].filter((d) => onOld.has(d)).length;
    const stuck = [...all.values()].filter((s) => s.status !== 'delivered').length;
    say(
      `smsc restart: accepted=${accepted.size} (${duringOutage.size} during the outage) reached old=${onOld.size} new=${onNew.size} delivered=${deliveredCount(all)} duplicates=${duplicates} no-receipt (old instance died)=${stuck}`,
    );
    expect(lost).toEqual([]);
    expect(newNotDelivered).toEqual([]);
    expect(duringOutage.size).toBe(20);
    // What was accepted during the outage can only have gone to the new instance.
    for (const d of duringOutage.keys()) expect(onNew.has(d)).toBe(true);
  }, 180_000);

  it('when Kafka is restarted between accepting messages and their delivery, then every accepted message reaches the SMSC and is delivered', async () => {
    dumpLogsOnFailure();
    const accepted = await sendMany(3, 0, 60);
    expect(accepted.size).toBe(60);
    const seenBefore = byDestination(await submitsOf(3)).size;
    let duringOutage = new Map<string, string>();
    try {
      await kafka('stop.sh');
      // The sms service answers from Postgres (outbox): sends may still be accepted.
      duringOutage = await sendMany(3, 60, 20);
    } finally {
      await kafka('start.sh');
    }
    for (const [d, id] of duringOutage) accepted.set(d, id);
    const ids = [...accepted.values()];
    await waitFor(
      async () => byDestination(await submitsOf(3)).size === accepted.size,
      90_000,
      500,
    );
    await waitFor(
      async () => deliveredCount(await statuses(gateway, ids)) === ids.length,
      60_000,
      500,
    );

    const counts = byDestination(await submitsOf(3));
    const duplicates = [...counts.values()].filter((n) => n > 1).length;
    const delivered = deliveredCount(await statuses(gateway, ids));
    say(
      `kafka restart: accepted=${accepted.size} (${duringOutage.size} while Kafka was down; ${seenBefore} at the SMSC before the stop) reached=${counts.size} delivered=${delivered} duplicates=${duplicates}`,
    );
    expect([...accepted.keys()].filter((d) => !counts.has(d))).toEqual([]);
    expect(delivered).toBe(accepted.size);
  }, 240_000);
});

import { type PrivateKafka, startPrivateKafka } from '@msg/kafka';
import type { Got } from 'got';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SmsPlatform, startSmsProcesses } from './platform.js';
import {
  allowFor,
  byDestination,
  deliveredCount,
  destination,
  destinationsOf,
  dumpLogsOnFailure,
  faultMessages,
  readiness,
  type Submit,
  sleep,
  smsAccount,
  smscControl,
  smscRecorder,
  statuses,
  statusTracker,
  waitFor,
  warmUp,
} from './sms-path.js';

/**
 * Faults on the SMS delivery path in the deployed shape (a process per service, real Postgres, a
 * Kafka of its own, the SMSC simulator as its own process): the connector killed with messages in
 * flight, the SMSC going away and coming back on the same port, Kafka restarted. Each test counts
 * what the gateway accepted, what reached the SMSC and what was delivered: nothing accepted is
 * lost. Messages are told apart at the SMSC by destination number (one per message).
 *
 * MESSAGES per test (SMS_FAULT_MESSAGES; 60 by default, what CI affords in about a minute per
 * test on today's path); every deadline grows with it (allowFor), the duplicate bound does not:
 *   SMS_FAULT_MESSAGES=10000 pnpm --filter @msg/suite exec vitest run test/sms-faults.e2e.test.ts
 */
const MESSAGES = faultMessages(60);
/** Sent while the SMSC or Kafka is away, on top of MESSAGES (20 of 60 before). */
const DURING_OUTAGE = Math.ceil(MESSAGES / 3);
/** The kill comes once this many reached the SMSC: well inside the run. */
const KILL_AFTER = Math.max(10, Math.floor(MESSAGES / 5));
const WINDOW = 10;
const BINDS = 1;
/**
 * Outbound handlers at once. A killed connector resubmits what was answered by the SMSC but not
 * yet committed: under group commit that is not bounded by the window (answers keep arriving
 * while a commit runs) but by the handlers (10 duplicates of 10,000 seen at the default 256).
 */
const SUBMIT_CONCURRENCY = 32;
/**
 * Parts per second the connector submits for the account: spreads the run over at least three
 * seconds (60 messages: 20/s), so the faults land with messages in flight.
 */
const ACCOUNT_TPS = Math.min(10_000, Math.max(20, Math.ceil(MESSAGES / 3)));
/** Sends at once from the test (independent clients). */
const SENDERS = 16;

let kafka: PrivateKafka;
let platform: SmsPlatform;
let gateway: Got;
let smsc: Got;
const account = { name: `smsfault${Date.now().toString(36)}`, password: 'e2e-password-123' };

const say = (line: string) => process.stderr.write(`[sms-faults] ${line}\n`);

/** Sends `count` messages (SENDERS at a time); answers destination (without +) → messageId of each 202. */
async function sendMany(test: number, from: number, count: number): Promise<Map<string, string>> {
  const accepted = new Map<string, string>();
  const refused: Record<string, number> = {};
  let next = from;
  const worker = async () => {
    while (next < from + count) {
      const to = destination(test, next++);
      const send = () =>
        gateway
          .post<{ messageId: string }>('v1/sms/send', {
            json: { to, from: 'FAULTS', message: `fault test ${to}` },
          })
          .catch(() => undefined);
      let res = await send();
      // A 429 accepted nothing: retry it as a client would. (Seen during the Kafka restart at
      // 10,000 messages although far below the account's rate: see the lead's notes, issue 11.)
      for (let retry = 0; res?.statusCode === 429 && retry < 20; retry++) {
        await sleep(Math.min(1000, 1000 * Number(res.headers['retry-after'] ?? 1)));
        res = await send();
      }
      if (res?.statusCode === 202) accepted.set(to.slice(1), res.body.messageId);
      else {
        const key = String(res?.statusCode ?? 'error');
        refused[key] = (refused[key] ?? 0) + 1;
      }
    }
  };
  await Promise.all(Array.from({ length: SENDERS }, worker));
  if (Object.keys(refused).length > 0) say(`not accepted: ${JSON.stringify(refused)}`);
  return accepted;
}

/** Every submit of test `test` any simulator instance showed (read incrementally). */
let recorder: ReturnType<typeof smscRecorder>;
async function submitsOf(test: number): Promise<Submit[]> {
  const seen = await recorder.poll();
  return [...seen.values()].filter((s) => s.destinationAddr.startsWith(destinationsOf(test)));
}

/** Waits until every accepted message is delivered; the statuses then. */
async function allDelivered(ids: string[]) {
  const tracker = statusTracker(gateway, ids);
  await waitFor(
    async () => deliveredCount(await tracker.refresh()) === ids.length,
    allowFor(ids.length),
    1000,
  );
  return tracker.refresh();
}

beforeAll(async () => {
  // A broker of its own: the Kafka test restarts it, and the shared one must never stop.
  kafka = await startPrivateKafka();
  platform = await startSmsProcesses({
    brokers: kafka.brokers,
    oneByOne: true,
    window: WINDOW,
    smscEnv: { RECEIPT_DELAY_MS: '200', LOG_LEVEL: 'warn' },
    connectorEnv: {
      SMPP_RECONNECT_MIN_MS: '200',
      SMPP_RECONNECT_MAX_MS: '2000',
      SUBMIT_CONCURRENCY: String(SUBMIT_CONCURRENCY),
    },
  });
  smsc = smscControl(platform);
  recorder = smscRecorder(smsc);
  gateway = await smsAccount(platform, account, ACCOUNT_TPS);
  await warmUp(
    platform,
    gateway,
    { to: destination(0, 0), from: 'FAULTS', message: 'warm-up' },
    async (id) => (await statuses(gateway, [id])).get(id)?.status === 'delivered',
  );
}, 300_000);

afterAll(async () => {
  try {
    await platform?.stop();
  } finally {
    await kafka?.stop();
  }
}, 120_000);

/** From `after` to the first of `submits` that arrived later (ms); null when none did. */
function firstAfter(submits: Iterable<Submit>, after: number): number | null {
  const times = [...submits].map((s) => Date.parse(s.receivedAt)).filter((t) => t > after);
  return times.length > 0 ? Math.min(...times) - after : null;
}

const TEST_TIMEOUT = 3 * allowFor(MESSAGES + DURING_OUTAGE) + 60_000;

describe('SMS delivery path under faults, a process per service', () => {
  it(
    'when the connector is killed (SIGKILL) with messages in flight and restarted, then every accepted message reaches the SMSC and is delivered',
    async () => {
      dumpLogsOnFailure(platform);
      const sending = sendMany(1, 0, MESSAGES);
      let seenAtKill = 0;
      const some = await waitFor(
        async () => {
          seenAtKill = byDestination(await submitsOf(1)).size;
          return seenAtKill >= KILL_AFTER;
        },
        allowFor(KILL_AFTER),
        50,
      );
      expect(some).toBe(true);
      await platform.connector.kill('SIGKILL');
      const killedAt = Date.now();
      const seenAfterKill = byDestination(await submitsOf(1)).size;
      await platform.connector.start();
      const accepted = await sending;
      expect(accepted.size).toBe(MESSAGES);
      say(
        `connector killed: ${seenAtKill} of ${accepted.size} at the SMSC (${seenAfterKill} after)`,
      );
      expect(seenAfterKill).toBeLessThan(accepted.size);

      await waitFor(
        async () => byDestination(await submitsOf(1)).size === accepted.size,
        allowFor(MESSAGES),
        1000,
      );
      const ids = [...accepted.values()];
      const all = await allDelivered(ids);
      const submits = await submitsOf(1);
      const counts = byDestination(submits);
      const duplicates = [...counts.values()].filter((n) => n > 1).length;
      const delivered = deliveredCount(all);
      const lost = [...accepted.keys()].filter((d) => !counts.has(d));
      say(
        `connector kill: ${JSON.stringify({ accepted: accepted.size, reached: counts.size, delivered, lost: lost.length, duplicates, notYetAtKill: accepted.size - seenAtKill, recoveryMs: firstAfter(submits, killedAt) })}`,
      );
      expect(lost).toEqual([]);
      expect(delivered).toBe(accepted.size);
      // At-least-once towards the SMSC: only parts in flight at the kill can go twice.
      expect(duplicates).toBeLessThanOrEqual(SUBMIT_CONCURRENCY);
    },
    TEST_TIMEOUT,
  );

  it(
    'when the SMSC goes away and comes back on the same port, then readiness follows it and every accepted message reaches one of the instances; what reached the new one is delivered',
    async () => {
      dumpLogsOnFailure(platform);
      const sending = sendMany(2, 0, MESSAGES);
      const some = await waitFor(
        async () => byDestination(await submitsOf(2)).size >= KILL_AFTER,
        allowFor(KILL_AFTER),
        50,
      );
      expect(some).toBe(true);
      // What the old instance showed (a few more may arrive between the last read and the kill;
      // those are recognised by the old instance's id prefix in the message's smscMessageIds).
      await submitsOf(2);
      const oldPrefix = recorder.prefix() ?? '';
      await platform.smsc.kill('SIGKILL');
      const notReady = await waitFor(
        async () => (await readiness(platform.connector.url)) === 503,
        30_000,
      );
      expect(notReady).toBe(true);
      const accepted = await sending;
      expect(accepted.size).toBe(MESSAGES);
      // Accepted while no SMSC is there: they wait for a bind.
      const duringOutage = await sendMany(2, MESSAGES, DURING_OUTAGE);
      for (const [d, id] of duringOutage) accepted.set(d, id);
      await sleep(1000);
      await platform.smsc.start();
      const restartedAt = Date.now();
      const readyAgain = await waitFor(
        async () => (await readiness(platform.connector.url)) === 200,
        30_000,
      );
      expect(readyAgain).toBe(true);

      const ids = [...accepted.values()];
      const tracker = statusTracker(gateway, ids);
      const onInstance = (submits: Submit[], old: boolean) =>
        byDestination(submits.filter((s) => s.messageId.startsWith(oldPrefix) === old));
      const tally = async () => {
        const submits = await submitsOf(2);
        const onNew = onInstance(submits, false);
        const oldSnapshot = onInstance(submits, true);
        const all = await tracker.refresh();
        const onOld = new Set<string>();
        for (const [d, id] of accepted) {
          const smscIds = all.get(id)?.smscMessageIds ?? [];
          const oldIds = smscIds.length > 0 && smscIds.every((m) => m.startsWith(oldPrefix));
          if (oldSnapshot.has(d) || oldIds) onOld.add(d);
        }
        const lost = [...accepted.keys()].filter((d) => !onNew.has(d) && !onOld.has(d));
        const newNotDelivered = [...onNew.keys()].filter(
          (d) => all.get(accepted.get(d) ?? '')?.status !== 'delivered',
        );
        return { submits, onNew, onOld, all, lost, newNotDelivered };
      };
      await waitFor(
        async () => {
          const now = await tally();
          return now.lost.length === 0 && now.newNotDelivered.length === 0;
        },
        allowFor(accepted.size),
        1000,
      );
      const { submits, onNew, onOld, all, lost, newNotDelivered } = await tally();
      const duplicates = [...onNew.keys()].filter((d) => onOld.has(d)).length;
      const stuck = [...all.values()].filter((s) => s.status !== 'delivered').length;
      say(
        `smsc restart: ${JSON.stringify({
          accepted: accepted.size,
          duringOutage: duringOutage.size,
          reachedOld: onOld.size,
          reachedNew: onNew.size,
          delivered: deliveredCount(all),
          lost: lost.length,
          duplicates,
          noReceiptOldInstanceDied: stuck,
          recoveryMs: firstAfter(
            submits.filter((s) => !s.messageId.startsWith(oldPrefix)),
            restartedAt,
          ),
        })}`,
      );
      expect(lost).toEqual([]);
      expect(newNotDelivered).toEqual([]);
      expect(duringOutage.size).toBe(DURING_OUTAGE);
      // What was accepted during the outage can only have gone to the new instance.
      for (const d of duringOutage.keys()) expect(onNew.has(d)).toBe(true);
      // Only what was in flight at the kill can have gone to both instances.
      expect(duplicates).toBeLessThanOrEqual(WINDOW * BINDS);
    },
    TEST_TIMEOUT,
  );

  it(
    'when Kafka is restarted between accepting messages and their delivery, then every accepted message reaches the SMSC and is delivered',
    async () => {
      dumpLogsOnFailure(platform);
      const sending = sendMany(3, 0, MESSAGES);
      await waitFor(
        async () => byDestination(await submitsOf(3)).size >= KILL_AFTER,
        allowFor(KILL_AFTER),
        50,
      );
      const seenBefore = byDestination(await submitsOf(3)).size;
      // The sms service answers from Postgres (outbox): sends go on being accepted meanwhile.
      const [outage, duringOutage] = await Promise.all([
        kafka.restart(),
        sendMany(3, MESSAGES, DURING_OUTAGE),
      ]);
      const accepted = await sending;
      expect(accepted.size).toBe(MESSAGES);
      for (const [d, id] of duringOutage) accepted.set(d, id);
      await waitFor(
        async () => byDestination(await submitsOf(3)).size === accepted.size,
        allowFor(accepted.size),
        1000,
      );
      const ids = [...accepted.values()];
      const all = await allDelivered(ids);

      const submits = await submitsOf(3);
      const counts = byDestination(submits);
      const duplicates = [...counts.values()].filter((n) => n > 1).length;
      const delivered = deliveredCount(all);
      const lost = [...accepted.keys()].filter((d) => !counts.has(d));
      say(
        `kafka restart: ${JSON.stringify({ accepted: accepted.size, duringRestart: duringOutage.size, atSmscBeforeStop: seenBefore, reached: counts.size, delivered, lost: lost.length, duplicates, outageMs: outage.startedAt - outage.stoppedAt, recoveryMs: firstAfter(submits, outage.startedAt) })}`,
      );
      expect(lost).toEqual([]);
      expect(delivered).toBe(accepted.size);
      expect(duplicates).toBeLessThanOrEqual(WINDOW * BINDS);
    },
    TEST_TIMEOUT,
  );
});

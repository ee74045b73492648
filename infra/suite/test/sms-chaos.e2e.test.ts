import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type PrivateKafka, startPrivateKafka } from '@msg/kafka';
import type { Got } from 'got';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ManagedProcess, type SmsPlatform, startSmsProcesses } from './platform.js';
import {
  allowFor,
  destination,
  dumpLogsOnFailure,
  faultMessages,
  type Submit,
  sleep,
  smsAccount,
  smscControl,
  smscRecorder,
  statusTracker,
  waitFor,
  warmUp,
} from './sms-path.js';

/**
 * The chaos run in the deployed shape (a process per service on real Postgres and a Kafka of its
 * own): while a steady stream of SMS goes through the gateway, one fault at a time — kill -9 of
 * the connector, the sms service, the notifier, the SMSC simulator and the gateway, then a Kafka
 * restart — and the killed part is started again at once, as Kubernetes would. Each fault must
 * lose nothing: every send the gateway answered 202 reaches the SMSC (and, for the notifier, its
 * `delivered` callback arrives); duplicates are counted and bounded.
 *
 * It also measures, per fault, how long after the fault the HTTP API accepted a send again and
 * how long until a message sent after the fault reached the SMSC (its callback, for the
 * notifier). Those are measurements, not assertions: they are printed, and written as JSON to
 * RECOVERY_RESULTS_FILE (relative to the repository root) when set. bench/RESULTS.md records
 * them; rerun with
 *   RECOVERY_RESULTS_FILE=bench/recovery.json pnpm --filter @msg/suite exec vitest run test/sms-chaos.e2e.test.ts
 */
const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const WINDOW = 10;
/**
 * At least once towards the SMSC: a message goes twice only when the connector died between its
 * submit_sm_resp and recording the submission, i.e. among the outbound handlers running at once
 * (SUBMIT_CONCURRENCY, set to 32 here; 256 by default).
 */
const DUPLICATE_BOUND = 32;
/**
 * Messages of the steady stream per fault (SMS_FAULT_MESSAGES; 200 by default, what CI affords
 * in about 2 minutes per fault on today's path), one every PACE_MS — the stream lasts about 8 s
 * whatever the count, at most MAX_IN_FLIGHT sends waiting for their answer at once; the fault
 * comes after FAULT_AT of them. Every deadline grows with the count (allowFor); the duplicate
 * bound does not.
 */
const PER_FAULT = faultMessages(200);
const PACE_MS = Math.max(1, Math.floor(8000 / PER_FAULT));
const MAX_IN_FLIGHT = 64;
const FAULT_AT = Math.floor(PER_FAULT * 0.3);
/** How long the stream goes on after the fault while the API has not accepted a send again. */
const API_WAIT_MS = 120_000;

type Fault = 'smsc-connector' | 'sms' | 'notifier' | 'smsc-simulator' | 'gateway' | 'kafka';

interface Measurement {
  fault: Fault;
  accepted: number;
  refused: number;
  reachedSmsc: number;
  lost: number;
  duplicatesAtSmsc: number;
  delivered: number;
  callbacksDelivered: number;
  duplicateCallbacks: number;
  /** From the fault to the first 202 of a send started after it. */
  apiRecoveryMs: number | null;
  /** From the fault to the first message sent after it reaching the SMSC (callback: notifier). */
  pathRecoveryMs: number | null;
}

let kafka: PrivateKafka;
let platform: SmsPlatform;
let gateway: Got;
let smsc: Got;
let receiver: Server;
let callbackUrl: string;
const results: Measurement[] = [];
/** Every submit any SMSC instance recorded, by its SMSC message id (survives an SMSC restart). */
let seenAtSmsc = new Map<string, Submit>();
/** Arrival time of each `delivered` callback, by message id (all arrivals, duplicates too). */
const deliveredCallbacks = new Map<string, number[]>();
let polling = true;
const account = { name: `smschaos${Date.now().toString(36)}`, password: 'e2e-password-123' };

const say = (line: string) => process.stderr.write(`[sms-chaos] ${line}\n`);

async function pollSmsc() {
  const recorder = smscRecorder(smsc);
  while (polling) {
    seenAtSmsc = await recorder.poll().catch(() => seenAtSmsc);
    await sleep(200);
  }
}

/** What a fault does, and which running process it takes down. */
function inject(fault: Fault): Promise<void> {
  if (fault === 'kafka') return kafka.restart().then(() => undefined);
  const processes: Record<Exclude<Fault, 'kafka'>, ManagedProcess> = {
    'smsc-connector': platform.connector,
    sms: platform.sms,
    notifier: platform.notifier,
    'smsc-simulator': platform.smsc,
    gateway: platform.gateway,
  };
  const target = processes[fault];
  return target.kill('SIGKILL').then(() => target.start());
}

interface Send {
  to: string;
  startedAt: number;
  answeredAt?: number;
  status?: number;
  messageId?: string;
}

/**
 * Sends one SMS every PACE_MS (without waiting for answers, as independent clients would) and
 * injects the fault after FAULT_AT of them; goes on until PER_FAULT are sent and a send started
 * after the fault was accepted (or API_WAIT_MS passed). Never retries: a send without an answer is
 * not counted as accepted.
 */
async function stream(test: number, fault: Fault) {
  const sends: Send[] = [];
  const pending: Promise<void>[] = [];
  let faultAt = 0;
  let recovered: Promise<void> | undefined;
  let inFlight = 0;
  const acceptedAfterFault = () =>
    sends.some((s) => s.status === 202 && faultAt > 0 && s.startedAt >= faultAt);
  for (let i = 0; ; i++) {
    if (i === FAULT_AT) {
      faultAt = Date.now();
      recovered = inject(fault);
    }
    if (i >= PER_FAULT && (acceptedAfterFault() || Date.now() - faultAt > API_WAIT_MS)) break;
    while (inFlight >= MAX_IN_FLIGHT) await sleep(PACE_MS);
    const send: Send = { to: destination(test, i), startedAt: Date.now() };
    sends.push(send);
    inFlight++;
    pending.push(
      gateway
        .post<{ messageId: string }>('v1/sms/send', {
          json: {
            to: send.to,
            from: 'CHAOS',
            message: `chaos ${send.to}`,
            callback_url: callbackUrl,
          },
        })
        .then((res) => {
          send.status = res.statusCode;
          if (res.statusCode === 202) send.messageId = res.body.messageId;
        })
        .catch(() => {})
        .finally(() => {
          send.answeredAt = Date.now();
          inFlight--;
        }),
    );
    await sleep(PACE_MS);
  }
  await Promise.all(pending);
  await recovered;
  return { sends, faultAt };
}

function parseCallback(body: string): { messageId: string; status: string } | undefined {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

beforeAll(async () => {
  kafka = await startPrivateKafka();
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      const event = parseCallback(body);
      if (event?.status === 'delivered') {
        const arrivals = deliveredCallbacks.get(event.messageId) ?? [];
        arrivals.push(Date.now());
        deliveredCallbacks.set(event.messageId, arrivals);
      }
      res.writeHead(204).end();
    });
  });
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  const address = receiver.address();
  callbackUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/cb`;

  platform = await startSmsProcesses({
    brokers: kafka.brokers,
    oneByOne: true,
    window: WINDOW,
    smscEnv: { RECEIPT_DELAY_MS: '200', LOG_LEVEL: 'warn' },
    connectorEnv: {
      SMPP_RECONNECT_MIN_MS: '200',
      SMPP_RECONNECT_MAX_MS: '2000',
      SUBMIT_CONCURRENCY: String(DUPLICATE_BOUND),
    },
  });
  smsc = smscControl(platform);
  gateway = await smsAccount(platform, account, 500);
  void pollSmsc();
  // The account reaches the sms service over accounts.v1; then one message all the way round.
  await warmUp(
    platform,
    gateway,
    { to: destination(0, 0), from: 'CHAOS', message: 'warm-up', callback_url: callbackUrl },
    async (id) => deliveredCallbacks.has(id),
  );
}, 300_000);

afterAll(async () => {
  polling = false;
  if (results.length > 0) {
    const table = results.map(
      (r) =>
        `| ${r.fault} | ${r.accepted} | ${r.lost} | ${r.duplicatesAtSmsc} | ${r.duplicateCallbacks} | ${r.apiRecoveryMs ?? '-'} | ${r.pathRecoveryMs ?? '-'} |`,
    );
    say(
      `\n| fault | accepted | lost | duplicates at SMSC | duplicate callbacks | API again (ms) | path again (ms) |\n|---|---|---|---|---|---|---|\n${table.join('\n')}`,
    );
    const file = process.env.RECOVERY_RESULTS_FILE;
    if (file) {
      writeFileSync(
        resolve(REPO, file),
        `${JSON.stringify({ at: new Date().toISOString(), perFault: PER_FAULT, results }, null, 2)}\n`,
      );
    }
  }
  try {
    await platform?.stop();
  } finally {
    receiver?.close();
    await kafka?.stop();
  }
}, 120_000);

const FAULTS: [label: string, fault: Fault, test: number][] = [
  ['the connector is killed (-9)', 'smsc-connector', 1],
  ['the sms service is killed (-9)', 'sms', 2],
  ['the notifier is killed (-9)', 'notifier', 3],
  ['the SMSC simulator is killed (-9)', 'smsc-simulator', 4],
  ['the gateway is killed (-9)', 'gateway', 5],
  ['Kafka is restarted', 'kafka', 6],
];

describe('SMS path under chaos, a process per service', () => {
  it.each(FAULTS)(
    'when %s while messages are in flight and it comes back at once, then every accepted message reaches the SMSC and its delivered callback arrives',
    async (_label, fault, test) => {
      dumpLogsOnFailure(platform);
      const { sends, faultAt } = await stream(test, fault);
      const accepted = sends.filter((s) => s.status === 202 && s.messageId);
      const ids = accepted.map((s) => s.messageId as string);
      const tracker = statusTracker(gateway, ids);
      const arrivals = () => {
        // SMSC ids per destination: what any SMSC instance showed, and what the sms service
        // recorded (covers submits the killed SMSC took between two polls).
        const perDestination = new Map<string, Set<string>>();
        for (const submit of seenAtSmsc.values()) {
          const ids = perDestination.get(submit.destinationAddr) ?? new Set<string>();
          ids.add(submit.messageId);
          perDestination.set(submit.destinationAddr, ids);
        }
        return perDestination;
      };
      const lostNow = async () => {
        const all = await tracker.refresh();
        const reached = arrivals();
        for (const send of accepted) {
          const smscIds = all.get(send.messageId as string)?.smscMessageIds ?? [];
          const known = reached.get(send.to.slice(1)) ?? new Set<string>();
          for (const id of smscIds) known.add(id);
          reached.set(send.to.slice(1), known);
        }
        return { all, reached, lost: accepted.filter((s) => !reached.get(s.to.slice(1))?.size) };
      };
      await waitFor(async () => (await lostNow()).lost.length === 0, allowFor(PER_FAULT), 1000);
      // The SMSC that was killed took some receipts with it: those messages stay `submitted`.
      const mustDeliver =
        fault === 'smsc-simulator' ? accepted.filter((s) => s.startedAt >= faultAt) : accepted;
      const undelivered = (all: Awaited<ReturnType<typeof lostNow>>['all']) =>
        mustDeliver.filter(
          (s) =>
            !deliveredCallbacks.has(s.messageId as string) ||
            all.get(s.messageId as string)?.status !== 'delivered',
        );
      await waitFor(
        async () => undelivered((await lostNow()).all).length === 0,
        allowFor(PER_FAULT),
        1000,
      );
      const { all, reached, lost } = await lostNow();
      // Earliest arrival per destination, built once (thousands of sends × every submit is slow).
      const earliest = new Map<string, number>();
      for (const submit of seenAtSmsc.values()) {
        const at = Date.parse(submit.receivedAt);
        earliest.set(
          submit.destinationAddr,
          Math.min(at, earliest.get(submit.destinationAddr) ?? at),
        );
      }
      const firstReach = (s: Send) => earliest.get(s.to.slice(1)) ?? Infinity;
      const afterFault = accepted.filter((s) => s.startedAt >= faultAt);
      const pathTimes =
        fault === 'notifier'
          ? afterFault.map((s) => deliveredCallbacks.get(s.messageId as string)?.[0] ?? Infinity)
          : afterFault.map(firstReach);
      const firstPath = pathTimes.reduce((a, b) => Math.min(a, b), Infinity);
      const firstAccept = afterFault
        .map((s) => s.answeredAt ?? Infinity)
        .reduce((a, b) => Math.min(a, b), Infinity);
      const measurement: Measurement = {
        fault,
        accepted: accepted.length,
        refused: sends.length - accepted.length,
        reachedSmsc: accepted.filter((s) => reached.get(s.to.slice(1))?.size).length,
        lost: lost.length,
        duplicatesAtSmsc: accepted.filter((s) => (reached.get(s.to.slice(1))?.size ?? 0) > 1)
          .length,
        delivered: ids.filter((id) => all.get(id)?.status === 'delivered').length,
        callbacksDelivered: ids.filter((id) => deliveredCallbacks.has(id)).length,
        duplicateCallbacks: ids.filter((id) => (deliveredCallbacks.get(id)?.length ?? 0) > 1)
          .length,
        apiRecoveryMs: Number.isFinite(firstAccept) ? firstAccept - faultAt : null,
        pathRecoveryMs: Number.isFinite(firstPath) ? firstPath - faultAt : null,
      };
      results.push(measurement);
      say(JSON.stringify(measurement));

      expect(lost.map((s) => s.to)).toEqual([]);
      expect(accepted.length).toBeGreaterThan(FAULT_AT);
      // Sent after the fault and accepted: the path works again (how fast is measured above).
      expect(afterFault.length).toBeGreaterThan(0);
      expect(undelivered(all).map((s) => s.to)).toEqual([]);
      expect(measurement.duplicatesAtSmsc).toBeLessThanOrEqual(DUPLICATE_BOUND);
    },
    3 * allowFor(PER_FAULT) + API_WAIT_MS,
  );
});

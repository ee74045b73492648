import { randomBytes, randomUUID } from 'node:crypto';
import { createOutboxRelay } from '@msg/bus';
import {
  type AccountState,
  type CallbackDeadLetter,
  type CallbackRequest,
  type EventEnvelope,
  makeEvent,
  type OptOutChange,
  SMS_INBOUND_EVENT,
  SMS_STATUS_EVENT,
  type SmsInbound,
  type SmsStatus,
  Topics,
} from '@msg/contracts';
import { migrate } from '@msg/db';
import { loadNotifierConfig, startNotifier } from '@msg/notifier';
import {
  accountState,
  createScratchDatabase,
  metricTotal,
  startCallbackReceiver,
  startTestRuntime,
} from '@msg/testing';
import { Registry } from 'prom-client';
import { vi } from 'vitest';
import {
  honourStopWordsInReplies,
  type ReplyToAccount,
  type StopWordHook,
} from '../src/replies/opt-out-hook.js';
import { startInboundSide } from '../src/replies/start-inbound.js';
import { REPLYPATH_SCHEMA } from '../src/schema.js';
import { REPLYPATH_MIGRATIONS } from '../src/service.js';

const MINUTE = 60_000;
export const QUARANTINE_MS = 60 * MINUTE;

/**
 * The inbound side of reply-path (replies, reports, expiry) as the service runs it, on a scratch
 * database of the real Postgres server and the in-process bus, with the notifier delivering its
 * callbacks to a local receiver. The clock of matching and expiry is the system clock moved by
 * `advance`; the tables are written directly where the send path would (reserve).
 */
export async function startInboundHarness() {
  const scratch = await createScratchDatabase('replypath_inbound');
  const runtime = await startTestRuntime({ service: 'replypath', databaseUrl: scratch.url });
  const { pool, bus, logger } = runtime;
  await migrate({ pool, schema: REPLYPATH_SCHEMA, migrationsDirs: REPLYPATH_MIGRATIONS, logger });
  await bus.ensureTopics([
    { topic: Topics.smsInbound },
    { topic: Topics.smsStatus },
    { topic: Topics.callbacks },
    { topic: Topics.callbacksDlq },
    { topic: Topics.optOuts, compacted: true },
  ]);
  let offsetMs = 0;
  const now = () => new Date(Date.now() + offsetMs);
  const accounts = new Map<string, AccountState>();
  const metrics = new Registry();
  const requests: CallbackRequest[] = [];
  const deadLetters: CallbackDeadLetter[] = [];
  const optOuts: OptOutChange[] = [];
  const stopWordChecks: ReplyToAccount[] = [];
  const honour = honourStopWordsInReplies((id) => accounts.get(id));
  const onStopWord: StopWordHook = async (sql, reply) => {
    stopWordChecks.push(reply);
    await honour(sql, reply);
  };
  const recorders = await Promise.all([
    bus.subscribe({
      groupId: 'test-callbacks',
      topics: [Topics.callbacks],
      fromBeginning: true,
      handler: async (msg) => void requests.push(msg.value.payload as CallbackRequest),
    }),
    bus.subscribe({
      groupId: 'test-opt-outs',
      topics: [Topics.optOuts],
      fromBeginning: true,
      handler: async (msg) => void optOuts.push(msg.value.payload as OptOutChange),
    }),
    bus.subscribe({
      groupId: 'test-dead-letters',
      topics: [Topics.callbacksDlq],
      fromBeginning: true,
      handler: async (msg) => void deadLetters.push(msg.value.payload as CallbackDeadLetter),
    }),
  ]);
  const relay = createOutboxRelay({
    pool,
    schema: REPLYPATH_SCHEMA,
    bus,
    logger,
    pollIntervalMs: 20,
  });
  relay.start();
  const side = await startInboundSide({
    bus,
    pool,
    logger,
    metrics,
    accountById: (id) => accounts.get(id),
    quarantineMs: QUARANTINE_MS,
    // Sweeps run when a test calls sweep(), with the moved clock.
    sweepIntervalMs: 3_600_000,
    onStopWord,
    now,
  });
  const notifier = await startNotifier(
    loadNotifierConfig({
      LOG_LEVEL: 'error',
      CALLBACK_SECRETS_KEY: randomBytes(32).toString('hex'),
      CALLBACK_ALLOW_PRIVATE_TARGETS: 'true',
      NOTIFIER_POLL_MS: '20',
      CALLBACK_RETRY_BASE: '100ms',
      CALLBACK_RETRY_MAX: '300ms',
      CALLBACK_TIMEOUT_MS: '2000',
    }),
    runtime,
  );
  const receiver = await startCallbackReceiver();

  return {
    pool,
    bus,
    receiver,
    requests,
    deadLetters,
    /** What the opt-out hook was called with. */
    stopWordChecks,
    /** The optouts.v1 changes published. */
    optOuts,
    now,
    sweep: side.sweep,
    /** Moves the service's clock (matching and expiry) forward. */
    advance(ms: number) {
      offsetMs += ms;
    },

    /** An account with the given callbacks, known to the service. */
    account(callbacks: Partial<AccountState['callbacks']> = {}): AccountState {
      const base = accountState({ permissions: ['replypath'] });
      const account = { ...base, callbacks: { ...base.callbacks, ...callbacks } };
      accounts.set(account.id, account);
      return account;
    },

    /**
     * A sent message and its reservation of (recipient, number) as the send path stores them:
     * from `startsAt` (now by default) for `vpMinutes`, quarantined QUARANTINE_MS after.
     */
    async reserve({
      account,
      recipient = uniqueNumber(),
      number = uniqueNumber(),
      vpMs = 10 * MINUTE,
      startsAt = now(),
      oneShot = false,
      dlr = false,
      source = 'replypath',
    }: {
      account: AccountState;
      source?: SmsStatus['source'];
      recipient?: string;
      number?: string;
      vpMs?: number;
      startsAt?: Date;
      oneShot?: boolean;
      dlr?: boolean;
    }) {
      const transactionId = randomUUID();
      const endsAt = new Date(startsAt.getTime() + vpMs);
      const quarantineUntil = new Date(endsAt.getTime() + QUARANTINE_MS);
      await pool.query(
        `INSERT INTO "replypath"."pool_numbers" ("number") VALUES ($1) ON CONFLICT DO NOTHING`,
        [number],
      );
      await pool.query(
        `INSERT INTO "replypath"."messages"
           ("transaction_id", "account_id", "source", "recipient", "number", "text", "parts",
            "encoding", "dlr", "one_shot", "vp", "created_at", "expires_at")
         VALUES ($1, $2, $10, $3, $4, 'Hello?', 1, 'GSM-7', $5, $6, $7, $8, $9)`,
        [
          transactionId,
          account.id,
          recipient,
          number,
          dlr,
          oneShot,
          Math.ceil(vpMs / MINUTE),
          startsAt,
          endsAt,
          source,
        ],
      );
      await pool.query(
        `INSERT INTO "replypath"."reservations"
           ("id", "number", "recipient", "transaction_id", "account_id", "one_shot", "dlr",
            "starts_at", "ends_at", "quarantine_until")
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [
          randomUUID(),
          number,
          recipient,
          transactionId,
          account.id,
          oneShot,
          dlr,
          startsAt,
          endsAt,
          quarantineUntil,
        ],
      );
      return { transactionId, recipient, number, endsAt, quarantineUntil, account };
    },

    /** An inbound SMS as the smsc-connector publishes it; returns its event (to publish again). */
    async inbound(
      sms: Pick<SmsInbound, 'from' | 'to'> & Partial<SmsInbound>,
      again?: EventEnvelope<SmsInbound>,
    ): Promise<EventEnvelope<SmsInbound>> {
      const event =
        again ??
        makeEvent<SmsInbound>(SMS_INBOUND_EVENT, {
          text: 'Yes please',
          receivedAt: now().toISOString(),
          ...sms,
        });
      await bus.publish(Topics.smsInbound, [{ key: event.payload.to, value: event }]);
      return event;
    },

    /** A status report as the smsc-connector publishes it. */
    async status(
      status: Pick<SmsStatus, 'messageId' | 'accountId' | 'state'> & Partial<SmsStatus>,
    ) {
      const payload: SmsStatus = {
        source: 'replypath',
        smscMessageIds: ['smsc-1'],
        parts: 1,
        at: now().toISOString(),
        ...status,
      };
      const event = makeEvent(SMS_STATUS_EVENT, payload, { accountId: status.accountId });
      await bus.publish(Topics.smsStatus, [{ key: status.messageId, value: event }]);
      return event;
    },

    /** The same status event once more (a redelivery). */
    async republishStatus(event: EventEnvelope<SmsStatus>) {
      await bus.publish(Topics.smsStatus, [{ key: event.payload.messageId, value: event }]);
    },

    async replies(transactionId: string) {
      const { rows } = await pool.query<{ from: string; text: string; forward_state: string }>(
        `SELECT "from", "text", "forward_state" FROM "replypath"."replies" WHERE "transaction_id" = $1`,
        [transactionId],
      );
      return rows;
    },

    /** The value of replypath_inbound_sms_total for an outcome. */
    inboundCount: (outcome: string) =>
      metricTotal(metrics, 'replypath_inbound_sms_total', { outcome }),

    /** Which events the inbound consumer has handled (claimed), by event id. */
    async handled(eventId: string): Promise<boolean> {
      const { rows } = await pool.query(
        `SELECT 1 FROM "replypath"."processed_event" WHERE "event_id" = $1`,
        [eventId],
      );
      return rows.length > 0;
    },

    async stop() {
      await receiver.close();
      await notifier.stop();
      await side.stop();
      await relay.stop();
      await Promise.all(recorders.map((r) => r.stop()));
      await runtime.stop();
      await scratch.drop();
    },
  };
}

export type InboundHarness = Awaited<ReturnType<typeof startInboundHarness>>;

let numberSeq = 0;

/** A Swedish mobile number no other test of this run uses. */
export function uniqueNumber(): string {
  numberSeq += 1;
  return `+4670${String(process.pid % 10_000).padStart(4, '0')}${String(numberSeq).padStart(3, '0')}`;
}

/** Polls until `check` stops throwing (an expect inside it); rethrows its last error. */
export async function until(check: () => unknown, timeoutMs = 20_000): Promise<void> {
  await vi.waitFor(check, { timeout: timeoutMs, interval: 25 });
}

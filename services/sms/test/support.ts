import { hashSecret } from '@msg/auth';
import {
  type AccountState,
  type EventEnvelope,
  makeEvent,
  SMS_INBOUND_EVENT,
  SMS_STATUS_EVENT,
  type SmsStatus,
  Topics,
} from '@msg/contracts';
import type { Logger } from '@msg/logger';
import {
  accountState,
  createScratchDatabase,
  eventually,
  metricTotal,
  publishAccount,
  publishProtectedSenders,
  startFakeBilling,
  startTestRuntime,
} from '@msg/testing';
import { Registry } from 'prom-client';
import request from 'supertest';
import { loadSmsConfig } from '../src/config.js';
import { startSmsService } from '../src/service.js';

export const PASSWORD = 'correct horse battery staple';

/** A message some consumer saw on a topic. */
export interface Seen {
  key: string | null;
  value: EventEnvelope;
}

type StatusFields = Partial<SmsStatus> & Pick<SmsStatus, 'messageId' | 'accountId' | 'state'>;

/** A status event as the smsc-connector publishes it, with defaults for what `status` leaves out. */
export function statusEvent(status: StatusFields): EventEnvelope<SmsStatus> {
  const payload: SmsStatus = {
    source: 'sms',
    smscMessageIds: [],
    parts: 1,
    at: new Date().toISOString(),
    ...status,
  };
  return makeEvent(SMS_STATUS_EVENT, payload, { accountId: status.accountId });
}

interface CallbackBody {
  messageId: string;
  status: string;
}

/** The messageId and status of a callbacks.v1 request's body, if it has both. */
function callbackBody(payload: unknown): CallbackBody | undefined {
  if (typeof payload !== 'object' || payload === null || !('body' in payload)) return undefined;
  const body = payload.body;
  if (typeof body !== 'object' || body === null) return undefined;
  if (!('messageId' in body) || typeof body.messageId !== 'string') return undefined;
  if (!('status' in body) || typeof body.status !== 'string') return undefined;
  return { messageId: body.messageId, status: body.status };
}

/**
 * The SMS service on embedded Postgres (or, with `postgres`, a scratch database on the real
 * server of TEST_DATABASE_URL) and the in-process bus, as in the embedded suite, with a
 * recorder of everything it publishes (sms.outbound.v1, callbacks.v1) and helpers that play the
 * admin service (accounts.v1) and the smsc-connector (sms.status.v1).
 */
export async function startTestSms({ postgres = false }: { postgres?: boolean } = {}) {
  const scratch = postgres ? await createScratchDatabase('sms_test') : undefined;
  const runtime = await startTestRuntime({
    service: 'sms',
    ...(scratch && { databaseUrl: scratch.url }),
  });
  const { pool, bus } = runtime;
  // Plays the admin service's billing API (prepaid debits).
  const billing = await startFakeBilling();
  // The service's own registry, so a test can read how many status reports it has handled.
  const metrics = new Registry();
  const sms = await startSmsService(
    loadSmsConfig({
      LOG_LEVEL: 'error',
      NODE_ENV: 'test',
      ADMIN_URL: billing.url,
      BILLING_INTERNAL_TOKEN: billing.token,
    }),
    { ...runtime, metrics },
  );
  const passwordHash = await hashSecret(PASSWORD);

  /** Status reports the status consumer has handled (committed) so far, of one outcome or all. */
  const statusReports = (outcome?: string) =>
    metricTotal(metrics, 'sms_status_reports_total', outcome ? { outcome } : {});
  const seen: Record<string, Seen[]> = {
    [Topics.smsOutbound]: [],
    [Topics.callbacks]: [],
    [Topics.optOuts]: [],
  };
  const recorder = await bus.subscribe({
    groupId: 'sms-test-recorder',
    topics: [Topics.smsOutbound, Topics.callbacks, Topics.optOuts],
    fromBeginning: true,
    handler: async ({ topic, key, value }) => {
      seen[topic]?.push({ key, value });
    },
  });

  return {
    app: sms.app,
    pool,
    bus,
    logger: runtime.logger as Logger,
    seen,
    billing,

    /** An active account with the 'sms' permission and the test password; override anything. */
    account(overrides: Partial<AccountState> = {}): AccountState {
      return accountState({
        passwordHash,
        permissions: ['sms'],
        smsThroughputPerSecond: 25,
        ...overrides,
      });
    },

    /** Publishes as the admin service does, then gives the directory a moment to read it. */
    async publishAccount(state: AccountState): Promise<AccountState> {
      return publishAccount(bus, state);
    },

    /** The operator's protected sender names, as admin publishes them; waits until they apply. */
    async publishProtectedSenders(names: string[]): Promise<void> {
      await publishProtectedSenders(bus, names, () =>
        names.every((name) => sms.protectedSenders.names().covers(name)),
      );
    },

    /**
     * A status report as the smsc-connector would publish it (in `envelope`, to send an event id
     * again); returns its envelope.
     */
    async publishStatus(
      status: StatusFields,
      envelope?: EventEnvelope<SmsStatus>,
    ): Promise<EventEnvelope<SmsStatus>> {
      const fresh = statusEvent(status);
      const value = envelope ? { ...envelope, payload: fresh.payload } : fresh;
      await bus.publish(Topics.smsStatus, [{ key: status.messageId, value }]);
      return value;
    },

    /** An SMS from `from` to the platform number `to`, as the smsc-connector publishes it. */
    async publishInbound(inbound: { from: string; to: string; text: string }) {
      const value = makeEvent(SMS_INBOUND_EVENT, {
        ...inbound,
        receivedAt: new Date().toISOString(),
      });
      await bus.publish(Topics.smsInbound, [{ key: inbound.to, value }]);
      return value;
    },

    statusReports,

    /**
     * Runs `publish` (which publishes `count` status reports) and resolves once the status
     * consumer has handled that many more; tests of one file run one at a time.
     */
    async handled<T>(count: number, publish: () => Promise<T>): Promise<T> {
      const before = await statusReports();
      const published = await publish();
      await eventually(
        async () => ((await statusReports()) >= before + count ? true : undefined),
        `${count} status reports to be handled`,
      );
      return published;
    },

    /** The callback bodies (messageId, status) queued so far for these messages, in order. */
    callbackBodies(messageIds: Set<string>): CallbackBody[] {
      return (seen[Topics.callbacks] ?? []).flatMap((m) => {
        const body = callbackBody(m.value.payload);
        return body && messageIds.has(body.messageId) ? [body] : [];
      });
    },

    /** Messages published on `topic` whose payload has `messageId`. */
    published(topic: string, match: (payload: unknown) => boolean): Seen[] {
      return (seen[topic] ?? []).filter((m) => match(m.value.payload));
    },

    send(acct: AccountState, body: string | object, user = acct.name, password = PASSWORD) {
      return request(sms.app).post('/v1/sms/send').auth(user, password).send(body);
    },

    get(acct: AccountState, messageId: string) {
      return request(sms.app).get(`/v1/sms/${messageId}`).auth(acct.name, PASSWORD);
    },

    async stop() {
      await recorder.stop();
      await sms.stop();
      await runtime.stop();
      await billing.close();
      await scratch?.drop();
    },
  };
}

export type TestSms = Awaited<ReturnType<typeof startTestSms>>;

/** Whether an event payload is about `messageId`. */
export function about(messageId: string) {
  return (payload: unknown) =>
    typeof payload === 'object' &&
    payload !== null &&
    'messageId' in payload &&
    payload.messageId === messageId;
}

/** Whether a callback request's body is about `messageId`. */
export function callbackAbout(messageId: string) {
  return (payload: unknown) =>
    typeof payload === 'object' &&
    payload !== null &&
    'body' in payload &&
    about(messageId)(payload.body);
}

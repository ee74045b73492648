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
import {
  accountState,
  createScratchDatabase,
  eventually,
  publishAccount,
  startTestRuntime,
} from '@msg/testing';
import request from 'supertest';
import { loadSmsConfig } from '../src/config.js';
import { startSmsService } from '../src/service.js';

export const PASSWORD = 'correct horse battery staple';

/** A message some consumer saw on a topic. */
export interface Seen {
  key: string | null;
  value: EventEnvelope;
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
  const sms = await startSmsService(
    loadSmsConfig({ LOG_LEVEL: 'error', NODE_ENV: 'test' }),
    runtime,
  );
  const passwordHash = await hashSecret(PASSWORD);
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
    seen,

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

    /** A status report as the smsc-connector would publish it; returns its envelope. */
    async publishStatus(
      status: Partial<SmsStatus> & Pick<SmsStatus, 'messageId' | 'accountId' | 'state'>,
      envelope?: EventEnvelope<SmsStatus>,
    ): Promise<EventEnvelope<SmsStatus>> {
      const payload: SmsStatus = {
        source: 'sms',
        smscMessageIds: [],
        parts: 1,
        at: new Date().toISOString(),
        ...status,
      };
      const value = envelope
        ? { ...envelope, payload }
        : makeEvent(SMS_STATUS_EVENT, payload, { accountId: status.accountId });
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

    /** Resolves once the status consumer has handled (claimed) the event. */
    async handled(eventId: string): Promise<void> {
      await eventually(async () => {
        const { rowCount } = await pool.query(
          'SELECT 1 FROM sms.processed_event WHERE consumer = $1 AND event_id = $2',
          ['sms-status', eventId],
        );
        return rowCount === 1 ? true : undefined;
      }, `event ${eventId} to be handled`);
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

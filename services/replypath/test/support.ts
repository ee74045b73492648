import { hashSecret } from '@msg/auth';
import {
  type AccountState,
  type EventEnvelope,
  makeEvent,
  SMS_INBOUND_EVENT,
  type SmsInbound,
  type SmsOutbound,
  Topics,
} from '@msg/contracts';
import { isOptedOut, optOutMessage } from '@msg/optout';
import {
  accountState,
  createScratchDatabase,
  eventually,
  publishAccount,
  startFakeBilling,
  startTestRuntime,
} from '@msg/testing';
import request from 'supertest';
import { loadReplypathConfig } from '../src/config.js';
import { REPLYPATH_SCHEMA } from '../src/schema.js';
import { startReplypathService } from '../src/service.js';

export const PASSWORD = 'correct horse battery staple';
export const INTERNAL_TOKEN = 'internal-token-for-tests';
export const ADMIN_TOKEN = 'admin-token-for-tests';

/** Numbers of the pool tests start with: the fiction range of PTS (070-1740605 and up). */
export const POOL = ['+46701740605', '+46701740606', '+46701740607'];

export interface TestOptions {
  /** A scratch database on the real Postgres of TEST_DATABASE_URL instead of embedded Postgres. */
  postgres?: boolean;
  /** The service's clock. */
  now?: () => Date;
  /** REPLYPATH_QUARANTINE. */
  quarantine?: string;
  /** The pool to start with. */
  pool?: string[];
}

/**
 * The reply-path service on embedded Postgres (or a scratch database on the real server) and the
 * in-process bus, as in the embedded suite, with a recorder of what it publishes on
 * sms.outbound.v1 and helpers that play the admin service (accounts.v1, its billing API, the
 * operators' opt-out edits), the operator and the smsc-connector (inbound SMS).
 */
export async function startTestReplypath(options: TestOptions = {}) {
  const scratch = options.postgres ? await createScratchDatabase('replypath_test') : undefined;
  const runtime = await startTestRuntime({
    service: 'replypath',
    ...(scratch && { databaseUrl: scratch.url }),
  });
  const { pool, bus } = runtime;
  // Plays the admin service's billing API (prepaid debits and refunds).
  const billing = await startFakeBilling();
  const service = await startReplypathService(
    loadReplypathConfig({
      LOG_LEVEL: 'error',
      NODE_ENV: 'test',
      REPLYPATH_INTERNAL_TOKEN: INTERNAL_TOKEN,
      REPLYPATH_ADMIN_TOKEN: ADMIN_TOKEN,
      ADMIN_URL: billing.url,
      BILLING_INTERNAL_TOKEN: billing.token,
      ...(options.quarantine && { REPLYPATH_QUARANTINE: options.quarantine }),
    }),
    runtime,
    { ...(options.now && { now: options.now }) },
  );
  const passwordHash = await hashSecret(PASSWORD);
  const outbound: EventEnvelope<SmsOutbound>[] = [];
  const recorder = await bus.subscribe({
    groupId: 'replypath-test-recorder',
    topics: [Topics.smsOutbound],
    fromBeginning: true,
    handler: async ({ value }) => {
      outbound.push(value as EventEnvelope<SmsOutbound>);
    },
  });
  const app = service.app;
  const admin = (req: request.Test) => req.set('authorization', `Bearer ${ADMIN_TOKEN}`);
  if ((options.pool ?? POOL).length > 0) {
    const added = await admin(request(app).post('/internal/v1/pool/numbers')).send({
      numbers: options.pool ?? POOL,
    });
    if (added.status !== 200) throw new Error(`pool not seeded: ${added.status} ${added.text}`);
  }

  return {
    app,
    pool,
    bus,
    outbound,
    billing,

    /** An active account with the 'replypath' permission and the test password. */
    account(overrides: Partial<AccountState> = {}): AccountState {
      return accountState({ passwordHash, permissions: ['replypath'], ...overrides });
    },

    /** Publishes as the admin service does and waits until the service knows the account. */
    async publishAccount(state: AccountState): Promise<AccountState> {
      return publishAccount(bus, state, (s) => service.accounts.byId(s.id)?.version === s.version);
    },

    send(acct: AccountState, body: string | object, query = '', password = PASSWORD) {
      const req = request(app).post(`/replypath/v1/sendsms${query}`).auth(acct.name, password);
      return typeof body === 'string'
        ? req.set('content-type', 'application/json').send(body)
        : req.send(body);
    },

    internalSend(body: string | object, token = INTERNAL_TOKEN) {
      return request(app)
        .post('/internal/v1/sendsms')
        .set('authorization', `Bearer ${token}`)
        .send(body);
    },

    /**
     * An operator's edit of the account's opt-out list as admin publishes it on optouts.v1;
     * resolves once this service's replica has applied it.
     */
    async setOptOut(acct: AccountState, msisdn: string, optedOut: boolean) {
      const message = optOutMessage({
        accountId: acct.id,
        msisdn,
        optedOut,
        source: 'operator',
        at: new Date().toISOString(),
      });
      await bus.publish(Topics.optOuts, [message]);
      await this.optedOutSoon(acct, msisdn, optedOut);
    },

    /** Resolves once the replica says `msisdn` is (or is no longer) opted out of the account. */
    async optedOutSoon(acct: AccountState, msisdn: string, optedOut = true) {
      await eventually(
        async () =>
          (await isOptedOut(pool, REPLYPATH_SCHEMA, acct.id, msisdn)) === optedOut || undefined,
        `${msisdn} opted ${optedOut ? 'out' : 'in'}`,
      );
    },

    /** An SMS from a handset as the smsc-connector publishes it on sms.inbound.v1. */
    async inbound(sms: Pick<SmsInbound, 'from' | 'to' | 'text'>) {
      const value = makeEvent<SmsInbound>(SMS_INBOUND_EVENT, {
        ...sms,
        receivedAt: new Date().toISOString(),
      });
      await bus.publish(Topics.smsInbound, [{ key: sms.to, value }]);
    },

    /** A send of the legacy service for `acct` through the internal API. */
    internalSendFor(acct: AccountState, To: string, Msg = 'Hej') {
      return this.internalSend({ accountId: acct.id, source: 'replypath-legacy', To, Msg });
    },

    /** Reservations of the account (every recipient): what a refused send must not leave. */
    async reservationsOf(acct: AccountState): Promise<number> {
      const { rows } = await pool.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM "replypath"."reservations" WHERE "account_id" = $1',
        [acct.id],
      );
      return rows[0]?.n ?? 0;
    },

    /** A request of the pool management API with the operator's token. */
    admin,

    /** supertest on the app, for requests the helpers do not cover. */
    raw: () => request(app),

    /** The outbound events about `transactionId`, once the relay has published them. */
    async published(transactionId: string): Promise<EventEnvelope<SmsOutbound>> {
      return eventually(
        async () => outbound.find((e) => e.payload.messageId === transactionId),
        `the outbound event of ${transactionId}`,
      );
    },

    async stop() {
      await recorder.stop();
      await service.stop();
      await runtime.stop();
      await billing.close();
      await scratch?.drop();
    },
  };
}

let recipientSeq = 0;

/**
 * A Swedish mobile number no other send of this test run names (national form and E.164), so a
 * small pool never runs out by accident.
 */
export function uniqueRecipient(): { national: string; e164: string } {
  recipientSeq += 1;
  const digits = `70444${String(recipientSeq).padStart(4, '0')}`;
  return { national: `0${digits}`, e164: `+46${digits}` };
}

export type TestReplypath = Awaited<ReturnType<typeof startTestReplypath>>;

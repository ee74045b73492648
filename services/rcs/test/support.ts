import { randomBytes } from 'node:crypto';
import { generateApiKey, hashSecret } from '@msg/auth';
import { type AccountState, type EventEnvelope, Topics } from '@msg/contracts';
import { accountState, eventually, publishAccount, startTestRuntime } from '@msg/testing';
import request from 'supertest';
import { loadRcsConfig } from '../src/config.js';
import { startRcsService } from '../src/service.js';

export const ADMIN_TOKEN = 'rcs-admin-token-for-tests';
export const API_KEY = generateApiKey();
export const CREDENTIALS_KEY = randomBytes(32).toString('hex');

export interface TestOptions {
  /** RCS_RATE_LIMIT_PER_MINUTE. */
  perMinute?: number;
  /** More settings (e.g. the webhooks' RCS_WEBHOOK_TIMEOUT_MS). */
  env?: Record<string, string>;
}

/**
 * The RCS service on embedded Postgres and the in-process bus, as in the embedded suite, with a
 * recorder of what it publishes on rcs.events.v1, rcs.outbound.v1 and sms.outbound.v1 (SMS
 * fallback), and helpers that play the
 * admin service (accounts.v1) and the operator (agents).
 */
export async function startTestRcs(options: TestOptions = {}) {
  const runtime = await startTestRuntime({ service: 'rcs' });
  const { bus, pool } = runtime;
  const service = await startRcsService(
    loadRcsConfig({
      LOG_LEVEL: 'error',
      NODE_ENV: 'test',
      RCS_ADMIN_TOKEN: ADMIN_TOKEN,
      RCS_CREDENTIALS_KEY: CREDENTIALS_KEY,
      ...(options.perMinute && { RCS_RATE_LIMIT_PER_MINUTE: String(options.perMinute) }),
      ...options.env,
    }),
    runtime,
  );
  const keyHash = await hashSecret(API_KEY);
  const published: { topic: string; key: string | null; value: EventEnvelope }[] = [];
  const recorder = await bus.subscribe({
    groupId: 'rcs-test-recorder',
    topics: [Topics.rcsEvents, Topics.rcsOutbound, Topics.smsOutbound],
    fromBeginning: true,
    handler: async ({ topic, key, value }) => {
      published.push({ topic, key: key ?? null, value: value as EventEnvelope });
    },
  });
  const app = service.app;
  const admin = (req: request.Test) => req.set('authorization', `Bearer ${ADMIN_TOKEN}`);

  return {
    app,
    /** The started service (its SMS fallback, TTL sweeper, RBM clients). */
    service,
    bus,
    /** The database and bus the service runs on (another service may share them in a test). */
    runtime,
    /** The service's database (assertions on what is stored). */
    pool,
    published,
    admin,

    /** An active account with the 'rcs' permission and the test API key. */
    account(overrides: Partial<AccountState> = {}): AccountState {
      return accountState({
        apiKeys: [{ id: 'k1', hash: keyHash, createdAt: new Date().toISOString() }],
        permissions: ['rcs'],
        ...overrides,
      });
    },

    /** Publishes as the admin service does and waits until the service knows the account. */
    async publishAccount(state: AccountState): Promise<AccountState> {
      return publishAccount(bus, state, (s) => service.accounts.byId(s.id)?.version === s.version);
    },

    /** Registers an agent through the operator API; the accounts given may send as it. */
    async agent(agentId: string, accounts: AccountState[], extra: object = {}) {
      const res = await admin(request(app).post('/internal/v1/agents')).send({
        agent_id: agentId,
        display_name: `Agent ${agentId}`,
        accounts: accounts.map((a) => a.id),
        ...extra,
      });
      if (res.status !== 201) throw new Error(`agent not created: ${res.status} ${res.text}`);
      return res.body;
    },

    /** POST /rcs/v1/messages as `acct` (its name as X-Client-ID, the test key). */
    send(acct: AccountState, body: string | object, key = API_KEY) {
      const req = request(app)
        .post('/rcs/v1/messages')
        .set('x-api-key', key)
        .set('x-client-id', acct.name);
      return typeof body === 'string'
        ? req.set('content-type', 'application/json').send(body)
        : req.send(body);
    },

    raw: () => request(app),

    /** Enables (or disables) SMS fallback for the account through the operator API. */
    async smsFallback(acct: AccountState, enabled: boolean) {
      const res = await admin(request(app).patch(`/internal/v1/account-settings/${acct.id}`)).send({
        sms_fallback: enabled,
      });
      if (res.status !== 200) throw new Error(`settings not changed: ${res.status} ${res.text}`);
      return res.body;
    },

    /** What was published on `topic` about message `messageId`, once the relay published it. */
    async publishedAbout(topic: string, messageId: string, count = 1) {
      return eventually(async () => {
        const found = published.filter(
          (p) =>
            p.topic === topic &&
            (p.value.payload as { messageId?: string }).messageId === messageId,
        );
        return found.length >= count ? found : undefined;
      }, `${count} event(s) on ${topic} about ${messageId}`);
    },

    async stop() {
      await recorder.stop();
      await service.stop();
      await runtime.stop();
    },
  };
}

export type TestRcs = Awaited<ReturnType<typeof startTestRcs>>;

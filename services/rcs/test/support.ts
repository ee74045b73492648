import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSecretBox, generateApiKey, hashSecret, parseSecretBoxKey } from '@msg/auth';
import {
  type AccountState,
  type EventEnvelope,
  type RcsDomainEvent,
  type RcsWebhookEvent,
  Topics,
} from '@msg/contracts';
import { loadNotifierConfig, type Notifier, startNotifier } from '@msg/notifier';
import { type RbmSimulator, startRbmSimulator } from '@msg/rbm-simulator';
import {
  accountState,
  eventually,
  publishAccount,
  publishProtectedSenders,
  startTestRuntime,
} from '@msg/testing';
import request from 'supertest';
import { createAgentStore } from '../src/agents/agent-store.js';
import { loadRcsConfig } from '../src/config.js';
import { createAgentClients } from '../src/rbm/agent-clients.js';
import { startRcsService } from '../src/service.js';

export const ADMIN_TOKEN = 'rcs-admin-token-for-tests';
export const API_KEY = generateApiKey();
export const CREDENTIALS_KEY = randomBytes(32).toString('hex');
export const NOTIFIER_TOKEN = 'notifier-internal-token-for-tests';

/**
 * NOTIFIER_URL of the service under test: 503 until a test starts the real notifier on the same
 * database and bus (startNotifier), which then answers there.
 */
async function startNotifierAddress() {
  let listener: RequestListener = (_req, res) => void res.writeHead(503).end();
  const server = createServer((req, res) => listener(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    serve: (app: RequestListener) => {
      listener = app;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The RBM service account of the test agents: a fresh RSA key, as the RBM console issues one. */
export const SERVICE_ACCOUNT = {
  type: 'service_account',
  client_email: 'rcs-test@rbm-test.iam.gserviceaccount.com',
  private_key: generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
    type: 'pkcs8',
    format: 'pem',
  }) as string,
};

/** infra/rbm-simulator on a free port (or `port`), trusting SERVICE_ACCOUNT. */
export function startTestRbm(port?: number): Promise<RbmSimulator> {
  return startRbmSimulator({
    serviceAccount: { clientEmail: SERVICE_ACCOUNT.client_email, key: SERVICE_ACCOUNT.private_key },
    deliverDelayMs: 60_000,
    readDelayMs: 60_000,
    ...(port && { port }),
  });
}

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
  // The RBM platform the service talks to (and readiness probes): the simulator.
  let rbm = await startTestRbm();
  const runtime = await startTestRuntime({ service: 'rcs' });
  const { bus, pool } = runtime;
  const notifierAddress = await startNotifierAddress();
  let notifier: Notifier | undefined;
  const service = await startRcsService(
    loadRcsConfig({
      LOG_LEVEL: 'error',
      NODE_ENV: 'test',
      NOTIFIER_URL: notifierAddress.url,
      NOTIFIER_INTERNAL_TOKEN: NOTIFIER_TOKEN,
      RCS_ADMIN_TOKEN: ADMIN_TOKEN,
      RCS_CREDENTIALS_KEY: CREDENTIALS_KEY,
      RCS_RBM_BASE_URL: rbm.url,
      RCS_RBM_TOKEN_URL: rbm.tokenUrl,
      RCS_DELIVERY_RETRY_INITIAL: '50ms',
      RCS_DELIVERY_RETRY_MAX: '200ms',
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
    /** The RBM simulator the service sends to. */
    get rbm() {
      return rbm;
    },
    /** Stops the RBM simulator (the platform is down) until `rbmUp`. */
    async rbmDown() {
      await rbm.close();
    },
    /** Starts the RBM simulator again on the same address (a new one: nothing received yet). */
    async rbmUp() {
      rbm = await startTestRbm(rbm.port);
    },
    /** GET/POST the simulator's control API (what it received, device profiles). */
    async rbmControl(method: string, path: string, body?: unknown) {
      const res = await fetch(`${rbm.url}/control${path}`, {
        method,
        ...(body !== undefined && {
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
      });
      const text = await res.text();
      return {
        status: res.status,
        body: (text ? JSON.parse(text) : {}) as Record<string, unknown>,
      };
    },
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

    /** The operator's protected sender names, as admin publishes them; waits until they apply. */
    async publishProtectedSenders(names: string[]): Promise<void> {
      await publishProtectedSenders(bus, names, () =>
        names.every((name) => service.protectedSenders.names().covers(name)),
      );
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

    /** Registers an agent naming its accounts as an operator does (ids or names). */
    async agentFor(agentId: string, accounts: string[]) {
      const res = await admin(request(app).post('/internal/v1/agents')).send({
        agent_id: agentId,
        display_name: `Agent ${agentId}`,
        accounts,
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

    /** Agent RBM clients as the service builds them (same store, key and simulator). */
    rbmClients() {
      const box = createSecretBox(parseSecretBoxKey(CREDENTIALS_KEY));
      return createAgentClients(createAgentStore(pool, box), {
        RCS_RBM_BASE_URL: rbm.url,
        RCS_RBM_TOKEN_URL: rbm.tokenUrl,
      });
    },

    /** The `event` of the first rcs.events.v1 event about message `messageId`. */
    async eventAbout(messageId: string): Promise<RcsWebhookEvent> {
      const [found] = await this.publishedAbout(Topics.rcsEvents, messageId);
      return (found?.value.payload as RcsDomainEvent | undefined)?.event as RcsWebhookEvent;
    },

    /**
     * The notifier on the service's database and bus (callbacks.v1), answering at NOTIFIER_URL;
     * stopped with the service.
     */
    async startNotifier(env: Record<string, string> = {}): Promise<Notifier> {
      notifier = await startNotifier(
        loadNotifierConfig({
          LOG_LEVEL: 'error',
          CALLBACK_SECRETS_KEY: randomBytes(32).toString('hex'),
          NOTIFIER_INTERNAL_TOKEN: NOTIFIER_TOKEN,
          ...env,
        }),
        runtime,
      );
      notifierAddress.serve(notifier.app);
      return notifier;
    },

    async stop() {
      await notifier?.stop();
      await notifierAddress.close();
      await recorder.stop();
      await service.stop();
      await runtime.stop();
      await rbm.close().catch(() => {});
    },
  };
}

export type TestRcs = Awaited<ReturnType<typeof startTestRcs>>;

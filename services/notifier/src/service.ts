import { fileURLToPath } from 'node:url';
import {
  basicAccountAccess,
  createCredentialVerifier,
  createPostgresRateLimiter,
  createSecretBox,
  parseSecretBoxKey,
  RATE_LIMIT_MIGRATIONS_DIR,
  requireServiceToken,
} from '@msg/auth';
import { OUTBOX_MIGRATIONS_DIR } from '@msg/bus';
import { Topics } from '@msg/contracts';
import { defineService, type ServiceDependencies, startWithBackground } from '@msg/service-kit';
import { createCallbackSender } from '@msg/webhooks';
import { createApp } from './app.js';
import { NOTIFIER_SCHEMA } from './callback-store.js';
import { loadNotifierConfig, type NotifierConfig } from './config.js';
import { createDeliveryLoop } from './delivery-loop.js';
import { createNotifierMetrics } from './metrics.js';
import { batchEventsGroup, subscribeToCallbackRequests } from './request-consumer.js';
import { createSigningSecretStore } from './signing/signing-secrets.js';
import { createTargetLimiter } from './target-limiter.js';

const MIGRATIONS_DIR = fileURLToPath(new URL('../prisma/migrations', import.meta.url));
/** Margin of a claim's lease beyond the attempt's own deadline. */
const LEASE_MARGIN_MS = 30_000;

/**
 * The notifier: its schema, topics and the account directory before it serves; once it listens,
 * the outbox relay of callbacks.dlq.v1 (drained at shutdown), the delivery loop and the consumers
 * of callbacks.v1 and batch.events.v1. Every callback is signed with its account's secret; the
 * app serves the accounts' callback signing interface (get, rotate) and the internal signing of
 * callbacks other services send themselves beside /healthz, /readyz and /metrics.
 */
export const notifierService = defineService({
  name: 'notifier',
  loadConfig: loadNotifierConfig,
  database: {
    schema: NOTIFIER_SCHEMA,
    migrations: [OUTBOX_MIGRATIONS_DIR, RATE_LIMIT_MIGRATIONS_DIR, MIGRATIONS_DIR],
  },
  publishes: [Topics.callbacksDlq],
  consumes: [
    { topic: Topics.callbacks, group: (config) => config.NOTIFIER_CONSUMER_GROUP },
    {
      topic: Topics.batchEvents,
      group: (config) => batchEventsGroup(config.NOTIFIER_CONSUMER_GROUP),
    },
  ],
  follows: ['accounts'],
  async start(config: NotifierConfig, kit) {
    const { pool, bus, logger } = kit;
    const directory = await kit.accountDirectory();
    const secrets = createSigningSecretStore({
      pool,
      box: createSecretBox(parseSecretBoxKey(config.CALLBACK_SECRETS_KEY)),
    });
    const sender = createCallbackSender({
      logger,
      timeoutMs: config.CALLBACK_TIMEOUT_MS,
      allowPrivateTargets: config.CALLBACK_ALLOW_PRIVATE_TARGETS,
      allowedHosts: config.CALLBACK_ALLOWED_HOSTS ?? [],
      userAgent: 'msg-notifier/1',
    });
    kit.onStop('callback-sender', () => sender.close());
    // Pending dead letters are published before the process goes.
    kit.outboxRelay({ pollIntervalMs: config.NOTIFIER_POLL_MS, drainOnStop: true });
    const loop = createDeliveryLoop({
      pool,
      sender,
      limiter: createTargetLimiter({
        perTarget: config.NOTIFIER_PER_TARGET_CONCURRENCY,
        global: config.NOTIFIER_CONCURRENCY,
      }),
      metrics: createNotifierMetrics(kit.metrics),
      logger,
      pollMs: config.NOTIFIER_POLL_MS,
      leaseMs: config.CALLBACK_TIMEOUT_MS + LEASE_MARGIN_MS,
      backoff: { baseMs: config.CALLBACK_RETRY_BASE, maxMs: config.CALLBACK_RETRY_MAX },
      signingSecrets: secrets.signingSecrets,
    });
    // Attempts in flight finish before the relay publishes what they dead-lettered.
    kit.afterListen('delivery-loop', () => {
      loop.start();
      return loop;
    });
    kit.afterListen('callback-consumers', async () => {
      const subscriptions = await subscribeToCallbackRequests({
        bus,
        pool,
        groupId: config.NOTIFIER_CONSUMER_GROUP,
        horizonMs: config.CALLBACK_HORIZON,
        onStored: loop.wake,
      });
      return { stop: async () => void (await Promise.all(subscriptions.map((s) => s.stop()))) };
    });
    const app = createApp({
      secrets,
      secretGraceMs: config.CALLBACK_SECRET_GRACE,
      // 401 Basic challenge, 403 disabled or outside the IP allow-list, 429 past the rate. No
      // permission: every account may have callbacks, and only ever reaches its own secret.
      basicAuth: basicAccountAccess(createCredentialVerifier({ directory }), {
        realm: 'Callbacks',
        bucket: 'callbacks',
        limiter: createPostgresRateLimiter({ pool, schema: NOTIFIER_SCHEMA }),
      }),
      internalBearer: requireServiceToken(config.NOTIFIER_INTERNAL_TOKEN, {
        realm: 'notifier-internal',
        message: 'Missing or invalid token',
      }),
      http: kit.http,
    });
    return { app };
  },
});

/** The whole notifier, consumer and loop included, without listening (component tests). */
export const startNotifier = (config: NotifierConfig, dependencies: ServiceDependencies) =>
  startWithBackground(notifierService, config, dependencies);

export type Notifier = Awaited<ReturnType<typeof startNotifier>>;

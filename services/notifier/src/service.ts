import { fileURLToPath } from 'node:url';
import { busReadiness, createOutboxRelay, type ServiceRuntime } from '@msg/bus';
import { Topics } from '@msg/contracts';
import { databaseReadiness, migrate } from '@msg/db';
import { createService } from '@msg/http';
import { createCallbackSender } from '@msg/webhooks';
import { Registry } from 'prom-client';
import { NOTIFIER_SCHEMA } from './callback-store.js';
import type { NotifierConfig } from './config.js';
import { createDeliveryLoop } from './delivery-loop.js';
import { createNotifierMetrics } from './metrics.js';
import { subscribeToCallbackRequests } from './request-consumer.js';
import { createTargetLimiter } from './target-limiter.js';

const MIGRATIONS_DIR = fileURLToPath(new URL('../prisma/migrations', import.meta.url));
/** Margin of a claim's lease beyond the attempt's own deadline. */
const LEASE_MARGIN_MS = 30_000;

/**
 * Starts the notifier: its schema, the consumers of callbacks.v1 and batch.events.v1, the delivery loop and the
 * outbox relay of callbacks.dlq.v1. The app serves only /healthz, /readyz and /metrics.
 */
export async function startNotifier(config: NotifierConfig, { pool, bus, logger }: ServiceRuntime) {
  await migrate({ pool, schema: NOTIFIER_SCHEMA, migrationsDir: MIGRATIONS_DIR, logger });
  await bus.ensureTopics([
    { topic: Topics.callbacks },
    { topic: Topics.batchEvents },
    { topic: Topics.callbacksDlq },
  ]);

  const registry = new Registry();
  registry.setDefaultLabels({ service: 'notifier' });
  const sender = createCallbackSender({
    logger,
    timeoutMs: config.CALLBACK_TIMEOUT_MS,
    allowPrivateTargets: config.CALLBACK_ALLOW_PRIVATE_TARGETS,
    allowedHosts: config.CALLBACK_ALLOWED_HOSTS ?? [],
    ...(config.CALLBACK_SIGNING_SECRET && { signingSecret: config.CALLBACK_SIGNING_SECRET }),
    userAgent: 'msg-notifier/1',
  });
  const loop = createDeliveryLoop({
    pool,
    sender,
    limiter: createTargetLimiter({
      perTarget: config.NOTIFIER_PER_TARGET_CONCURRENCY,
      global: config.NOTIFIER_CONCURRENCY,
    }),
    metrics: createNotifierMetrics(registry),
    logger,
    pollMs: config.NOTIFIER_POLL_MS,
    leaseMs: config.CALLBACK_TIMEOUT_MS + LEASE_MARGIN_MS,
    backoff: { baseMs: config.CALLBACK_RETRY_BASE, maxMs: config.CALLBACK_RETRY_MAX },
  });
  const relay = createOutboxRelay({
    pool,
    schema: NOTIFIER_SCHEMA,
    bus,
    logger,
    pollIntervalMs: config.NOTIFIER_POLL_MS,
  });
  loop.start();
  relay.start();
  const subscriptions = await subscribeToCallbackRequests({
    bus,
    pool,
    groupId: config.NOTIFIER_CONSUMER_GROUP,
    horizonMs: config.CALLBACK_HORIZON,
    onStored: loop.wake,
  });

  const app = createService({
    name: 'notifier',
    logger,
    metrics: registry,
    readiness: [databaseReadiness(pool), busReadiness(bus)],
    trustProxy: config.TRUSTED_PROXIES,
    routes: () => {},
  });

  return {
    app,
    /** Stops taking requests, lets attempts in flight finish, publishes pending dead letters. */
    async stop(): Promise<void> {
      await Promise.all(subscriptions.map((s) => s.stop()));
      await loop.stop();
      await relay.stop();
      await relay.drain().catch((error) => {
        logger.warn('dead letters left in the outbox', { error: String(error) });
      });
      sender.close();
    },
  };
}

export type Notifier = Awaited<ReturnType<typeof startNotifier>>;

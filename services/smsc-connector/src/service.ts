import { fileURLToPath } from 'node:url';
import { createRateLimiter } from '@msg/auth';
import { busReadiness, createOutboxRelay, type ServiceRuntime } from '@msg/bus';
import { Topics } from '@msg/contracts';
import { databaseReadiness, migrate } from '@msg/db';
import { createService } from '@msg/http';
import { Registry } from 'prom-client';
import { createBindPool } from './bind-pool.js';
import type { SmscConnectorConfig } from './config.js';
import { createDeliverHandler } from './deliver-handler.js';
import { createConnectorMetrics } from './metrics.js';
import { createOutboundHandler } from './outbound-handler.js';
import { createSmppBind, type SmppBind } from './smpp-bind.js';
import { SCHEMA } from './submission-store.js';
import { type BindPacer, createBindPacer } from './submit-pacer.js';

const MIGRATIONS_DIR = fileURLToPath(new URL('../prisma/migrations', import.meta.url));

/**
 * Starts the connector: its schema, one transceiver bind per configured SMS centre, the consumer
 * of sms.outbound.v1 and the outbox relay of sms.status.v1 / sms.inbound.v1. The app serves only
 * /healthz, /readyz (database, bus, at least one bind bound) and /metrics.
 */
export async function startSmscConnector(
  config: SmscConnectorConfig,
  { pool, bus, logger }: ServiceRuntime,
) {
  await migrate({ pool, schema: SCHEMA, migrationsDir: MIGRATIONS_DIR, logger });
  await bus.ensureTopics([
    { topic: Topics.smsOutbound },
    { topic: Topics.smsStatus },
    { topic: Topics.smsInbound },
  ]);

  const registry = new Registry();
  registry.setDefaultLabels({ service: 'smsc-connector' });
  const binds: SmppBind[] = [];
  const metrics = createConnectorMetrics(registry, () =>
    binds.map((bind) => ({ bind: bind.name, inUse: bind.windowInUse })),
  );
  const stopping = new AbortController();
  const handleDeliverSm = createDeliverHandler({ pool, metrics, logger });
  // Separate buckets: an account id can never collide with a bind name. In-process buckets hold
  // across replicas here: sms.outbound.v1 is keyed by account, so only the owner of an account's
  // partition submits for it, and a bind's TPS is the session's own, held by this process.
  const accountLimiter = createRateLimiter();
  const bindLimiter = createRateLimiter();

  const bindPool = createBindPool(binds);
  const pacers = new Map<SmppBind, BindPacer>();
  for (const settings of config.SMSC_BINDS) {
    metrics.bindUp.set({ bind: settings.name }, 0);
    const bind = createSmppBind({
      settings,
      timings: {
        enquireLinkMs: config.SMPP_ENQUIRE_LINK_MS,
        reconnectMinMs: config.SMPP_RECONNECT_MIN_MS,
        reconnectMaxMs: config.SMPP_RECONNECT_MAX_MS,
        responseTimeoutMs: config.SMPP_RESPONSE_TIMEOUT_MS,
      },
      logger,
      onDeliverSm: handleDeliverSm,
      onStateChange: (bind) => {
        metrics.bindUp.set({ bind: bind.name }, bind.isBound ? 1 : 0);
        bindPool.stateChanged();
      },
    });
    binds.push(bind);
    pacers.set(
      bind,
      createBindPacer({
        limiter: bindLimiter,
        key: settings.name,
        tps: settings.tps,
        initialBackoffMs: config.THROTTLE_BACKOFF_MS,
      }),
    );
  }

  const relay = createOutboxRelay({
    pool,
    schema: SCHEMA,
    bus,
    logger,
    pollIntervalMs: config.OUTBOX_POLL_MS,
  });
  relay.start();
  for (const bind of binds) bind.start();

  const subscription = await bus.subscribe({
    groupId: config.SMSC_CONSUMER_GROUP,
    topics: [Topics.smsOutbound],
    concurrency: config.SUBMIT_CONCURRENCY,
    // One account's SMS are independent of each other: let a single busy account fill the
    // window (offsets still commit only past contiguously finished messages).
    keyOrdering: false,
    handler: createOutboundHandler({
      pool,
      binds: bindPool,
      pacers,
      accountLimiter,
      defaultAccountTps: config.DEFAULT_ACCOUNT_TPS,
      metrics,
      logger,
      signal: stopping.signal,
    }),
  });

  const app = createService({
    name: 'smsc-connector',
    logger,
    metrics: registry,
    readiness: [
      databaseReadiness(pool),
      busReadiness(bus),
      { name: 'smpp-bind', isReady: () => bindPool.anyBound() },
    ],
    trustProxy: config.TRUSTED_PROXIES,
    routes: () => {},
  });

  return {
    app,
    /** True while at least one bind is bound (what /readyz reports). */
    isBound: () => bindPool.anyBound(),
    /**
     * Stops consuming (waiting submits are abandoned uncommitted and come back on the next start),
     * unbinds every SMSC and publishes what the outbox still holds.
     */
    async stop(): Promise<void> {
      stopping.abort();
      await subscription.stop();
      await Promise.all(binds.map((bind) => bind.stop()));
      await relay.stop();
      await relay.drain().catch((error) => {
        logger.warn('status events left in the outbox', { error: String(error) });
      });
    },
  };
}

export type SmscConnector = Awaited<ReturnType<typeof startSmscConnector>>;

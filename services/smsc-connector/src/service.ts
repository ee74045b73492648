import { fileURLToPath } from 'node:url';
import { createRateLimiter } from '@msg/auth';
import { OUTBOX_MIGRATIONS_DIR, subscribeToEvents } from '@msg/bus';
import { Topics } from '@msg/contracts';
import { createService } from '@msg/http';
import { defineService, type ServiceDependencies, startWithBackground } from '@msg/service-kit';
import { createBindPool } from './bind-pool.js';
import { loadSmscConnectorConfig, type SmscConnectorConfig } from './config.js';
import { createDeliverHandler } from './deliver-handler.js';
import { startExpirySweeper } from './expiry-sweeper.js';
import { createConnectorMetrics } from './metrics.js';
import { createOutboundHandler } from './outbound-handler.js';
import { SMSC_CONNECTOR_SCHEMA } from './schema.js';
import { createSmppBind, type SmppBind } from './smpp-bind.js';
import { type BindPacer, createBindPacer } from './submit-pacer.js';

const MIGRATIONS_DIR = fileURLToPath(new URL('../prisma/migrations', import.meta.url));

/**
 * The connector: its schema and topics before it serves; once it listens, the outbox relay of
 * sms.status.v1 / sms.inbound.v1 (drained at shutdown), one transceiver bind per configured SMS
 * centre and the consumer of sms.outbound.v1. The app serves only /healthz, /readyz (database,
 * at least one bind bound) and /metrics.
 */
export const smscConnectorService = defineService({
  name: 'smsc-connector',
  loadConfig: loadSmscConnectorConfig,
  database: { schema: SMSC_CONNECTOR_SCHEMA, migrations: [OUTBOX_MIGRATIONS_DIR, MIGRATIONS_DIR] },
  publishes: [Topics.smsStatus, Topics.smsInbound],
  consumes: [{ topic: Topics.smsOutbound, group: (config) => config.SMSC_CONSUMER_GROUP }],
  async start(config: SmscConnectorConfig, kit) {
    const { pool, bus, logger } = kit;
    const binds: SmppBind[] = [];
    const metrics = createConnectorMetrics(kit.metrics, () =>
      binds.map((bind) => ({ bind: bind.name, inUse: bind.windowInUse })),
    );
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

    // Unpublished status events go out before the process does.
    kit.outboxRelay({ pollIntervalMs: config.OUTBOX_POLL_MS, drainOnStop: true });
    kit.afterListen('smpp-binds', () => {
      for (const bind of binds) bind.start();
      return async () => {
        await Promise.all(binds.map((bind) => bind.stop()));
      };
    });
    // Waiting submits are abandoned uncommitted at shutdown and come back on the next start.
    kit.afterListen('outbound-consumer', async () => {
      const stopping = new AbortController();
      const subscription = await subscribeToEvents(bus, {
        topic: Topics.smsOutbound,
        groupId: config.SMSC_CONSUMER_GROUP,
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
          receiptWait: {
            defaultValidityMinutes: config.SMS_DEFAULT_VALIDITY_MINUTES,
            graceMinutes: config.RECEIPT_GRACE_MINUTES,
          },
        }),
      });
      return async () => {
        stopping.abort();
        await subscription.stop();
      };
    });

    // Messages whose receipt never came (lost with a crashed SMSC) end as 'expired'.
    kit.afterListen('receipt-expiry', () =>
      startExpirySweeper({
        pool,
        intervalMs: config.EXPIRY_SWEEP_MS,
        logger,
        onExpired: (count) => metrics.expired.inc(count),
      }),
    );

    const app = createService({
      ...kit.http,
      name: 'smsc-connector',
      readiness: [...kit.readiness, { name: 'smpp-bind', isReady: () => bindPool.anyBound() }],
      routes: () => {},
    });
    /** True while at least one bind is bound (what /readyz reports). */
    return { app, isBound: () => bindPool.anyBound() };
  },
});

/** The whole connector, binds and consumer included, without listening (component tests). */
export const startSmscConnector = (
  config: SmscConnectorConfig,
  dependencies: ServiceDependencies,
) => startWithBackground(smscConnectorService, config, dependencies);

export type SmscConnector = Awaited<ReturnType<typeof startSmscConnector>>;

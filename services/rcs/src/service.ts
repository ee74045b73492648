import { fileURLToPath } from 'node:url';
import {
  createCredentialVerifier,
  createPostgresRateLimiter,
  createSecretBox,
  parseSecretBoxKey,
  RATE_LIMIT_MIGRATIONS_DIR,
  requireServiceToken,
} from '@msg/auth';
import { OUTBOX_MIGRATIONS_DIR } from '@msg/bus';
import { Topics } from '@msg/contracts';
import { createPostgresIdempotencyStore, IDEMPOTENCY_MIGRATIONS_DIR } from '@msg/http';
import { OPT_OUT_MIGRATIONS_DIR, optOutsConsumer } from '@msg/optout';
import {
  defineService,
  repeatEvery,
  type ServiceDependencies,
  startWithBackground,
} from '@msg/service-kit';
import { createAgentStore } from './agents/agent-store.js';
import { createApp, type RcsOperations } from './app.js';
import { createCapabilityChecker } from './capability/index.js';
import { loadRcsConfig, type RcsConfig } from './config.js';
import {
  createDeliveryMetrics,
  createOutcomeStore,
  startDeliveryWorker,
} from './delivery/index.js';
import { createAccountSettingsStore } from './fallback/account-settings.js';
import { startFallback } from './fallback/index.js';
import { rcsAccess } from './http/access.js';
import { createPushReceiver } from './inbound/push-receiver.js';
import { purgeHandledPushes } from './inbound/push-retention.js';
import { createMessageStore } from './messages/message-store.js';
import { createAgentClients } from './rbm/agent-clients.js';
import { rbmReachability } from './rbm/reachability.js';
import { RCS_SCHEMA } from './schema.js';
import { createSubscriptionStore } from './subscriptions/subscription-store.js';
import { createTesterStore } from './testers/tester-store.js';
import { startWebhooks } from './webhooks/index.js';

/**
 * What the schema is made of: the outbox (@msg/bus), the rate buckets (@msg/auth), the
 * Idempotency-Key records of the send (@msg/http), the opt-out replica of the SMS fallback
 * (@msg/optout), its tables.
 */
export const RCS_MIGRATIONS = [
  OUTBOX_MIGRATIONS_DIR,
  RATE_LIMIT_MIGRATIONS_DIR,
  IDEMPOTENCY_MIGRATIONS_DIR,
  OPT_OUT_MIGRATIONS_DIR,
  fileURLToPath(new URL('../prisma/migrations', import.meta.url)),
];

/**
 * The RCS service: schema "rcs" and the account directory before it serves; once it listens,
 * the outbox relay (rcs.outbound.v1 for its delivery worker, rcs.events.v1 for its own webhook
 * fan-out, sms.outbound.v1 of the SMS fallback), the delivery worker (rcs.outbound.v1 → RBM) and
 * the fan-out, which reads rcs.events.v1 back and asks the notifier for each matching webhook's
 * delivery on callbacks.v1. The notifier never reads rcs.events.v1.
 */
export const rcsService = defineService({
  name: 'rcs',
  loadConfig: loadRcsConfig,
  database: { schema: RCS_SCHEMA, migrations: RCS_MIGRATIONS },
  // rcs.outbound.v1 feeds its delivery worker; rcs.events.v1 its webhook fan-out, which writes
  // callbacks.v1; the SMS fallback writes sms.outbound.v1 and reads its reports.
  publishes: [Topics.rcsOutbound, Topics.rcsEvents, Topics.callbacks, Topics.smsOutbound],
  consumes: [
    { topic: Topics.rcsOutbound, group: (config) => config.RCS_DELIVERY_CONSUMER_GROUP },
    { topic: Topics.rcsEvents, group: (config) => config.RCS_WEBHOOK_CONSUMER_GROUP },
    { topic: Topics.smsStatus, group: (config) => config.RCS_SMS_STATUS_CONSUMER_GROUP },
    optOutsConsumer(RCS_SCHEMA),
  ],
  follows: ['accounts', 'protectedSenders'],
  async start(config: RcsConfig, kit) {
    const directory = await kit.accountDirectory();
    kit.outboxRelay();
    const box = config.RCS_CREDENTIALS_KEY
      ? createSecretBox(parseSecretBoxKey(config.RCS_CREDENTIALS_KEY))
      : undefined;
    const agents = createAgentStore(kit.pool, box);
    /** RBM clients signed with each agent's own service account (delivery, capability, testers). */
    const rbm = createAgentClients(agents, config);
    const messages = createMessageStore(kit.pool, {
      fallbackTtlSeconds: Math.ceil(config.RCS_SMS_FALLBACK_TTL / 1000),
    });
    const settings = createAccountSettingsStore(kit.pool);
    /** SMS fallback (the delivery worker's `smsFallback`), its SMS reports and the TTL sweeper. */
    const { smsFallback, ttlSweeper, protectedSenders } = await startFallback(config, kit, {
      directory,
      rbm,
    });
    const subscriptions = createSubscriptionStore(kit.pool);
    /** RBM capability answers, cached for every client (the capability route and delivery). */
    const capability = createCapabilityChecker({ pool: kit.pool, rbm });
    const deliveryMetrics = createDeliveryMetrics(kit.metrics);
    kit.afterListen('delivery-worker', () =>
      startDeliveryWorker({
        bus: kit.bus,
        groupId: config.RCS_DELIVERY_CONSUMER_GROUP,
        concurrency: config.RCS_DELIVERY_CONCURRENCY,
        retry: {
          initialMs: config.RCS_DELIVERY_RETRY_INITIAL,
          maxMs: config.RCS_DELIVERY_RETRY_MAX,
        },
        outcomes: createOutcomeStore(kit.pool),
        capability,
        rbm,
        logger: kit.logger.child({ component: 'rcs-delivery' }),
        metrics: deliveryMetrics,
        isUnsubscribed: (agentId, phone) => subscriptions.isUnsubscribed(agentId, phone),
        smsFallback,
      }),
    );
    const operations: RcsOperations = {
      sending: { agents, messages, settings, protectedSenders, subscriptions, capability },
      operator: { agents, settings, accounts: directory },
      webhooks: startWebhooks(config, box, kit),
      push: createPushReceiver({
        pool: kit.pool,
        clientToken: config.RCS_RBM_CLIENT_TOKEN,
        metrics: kit.metrics,
        // RBM expired a message itself (its ttl): the same as our sweeper's revoke.
        serverEvents: async (event) => {
          if (event.eventType === 'TTL_EXPIRATION_REVOKED') {
            await ttlSweeper.revokedByRbm(event.messageId);
          }
        },
      }),
      testers: { agents, testers: createTesterStore(kit.pool), rbm },
    };
    const purgePushes = purgeHandledPushes(kit.pool);
    kit.afterListen('rcs-push-retention', () =>
      repeatEvery(
        3_600_000,
        async () => void (await purgePushes()),
        (error) => kit.logger.warn('purging handled RBM pushes failed', { error }),
      ),
    );
    const app = createApp({
      operations,
      access: rcsAccess({
        verifier: createCredentialVerifier({ directory }),
        limiter: createPostgresRateLimiter({ pool: kit.pool, schema: RCS_SCHEMA }),
        perMinute: config.RCS_RATE_LIMIT_PER_MINUTE,
      }),
      idempotencyStore: createPostgresIdempotencyStore({ pool: kit.pool, schema: RCS_SCHEMA }),
      adminBearer: requireServiceToken(config.RCS_ADMIN_TOKEN, {
        realm: 'rcs-agents',
        message: 'Missing or invalid token',
      }),
      http: kit.http,
      platformReadiness: [rbmReachability(config.RCS_RBM_BASE_URL)],
      clientUrls: {
        allowPrivateTargets: config.RCS_WEBHOOK_ALLOW_PRIVATE_TARGETS,
        allowedHosts: config.RCS_WEBHOOK_ALLOWED_HOSTS ?? [],
      },
    });
    /** The account directory (accounts.v1): tests wait on it after publishing an account. */
    return {
      app,
      accounts: directory,
      protectedSenders,
      agents,
      rbm,
      subscriptions,
      capability,
      smsFallback,
      ttlSweeper,
    };
  },
});

/** The whole service, background included, without listening (component tests). */
export const startRcsService = (config: RcsConfig, dependencies: ServiceDependencies) =>
  startWithBackground(rcsService, config, dependencies);

export type RcsService = Awaited<ReturnType<typeof startRcsService>>;

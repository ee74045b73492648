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
import { defineService, type ServiceDependencies, startWithBackground } from '@msg/service-kit';
import { createAgentStore } from './agents/agent-store.js';
import { createApp } from './app.js';
import { createCapabilityChecker } from './capability/index.js';
import { loadRcsConfig, type RcsConfig } from './config.js';
import {
  createDeliveryMetrics,
  createOutcomeStore,
  startDeliveryWorker,
} from './delivery/index.js';
import { rcsAccess } from './http/access.js';
import { createMessageStore } from './messages/message-store.js';
import { createAgentClients } from './rbm/agent-clients.js';
import { rbmReachability } from './rbm/reachability.js';
import { agentRoutes, messageRoutes } from './routes.js';
import { RCS_SCHEMA } from './schema.js';
import { startWebhooks, WEBHOOK_TOPICS } from './webhooks/index.js';

/** What the schema is made of: the outbox (@msg/bus), the rate buckets (@msg/auth), its tables. */
export const RCS_MIGRATIONS = [
  OUTBOX_MIGRATIONS_DIR,
  RATE_LIMIT_MIGRATIONS_DIR,
  fileURLToPath(new URL('../prisma/migrations', import.meta.url)),
];

/**
 * The RCS service: schema "rcs" and the account directory before it serves; once it listens,
 * the outbox relay (rcs.outbound.v1 for the delivery worker, rcs.events.v1 for the notifier)
 * and the delivery worker (rcs.outbound.v1 → RBM).
 */
export const rcsService = defineService({
  name: 'rcs',
  loadConfig: loadRcsConfig,
  database: { schema: RCS_SCHEMA, migrations: RCS_MIGRATIONS },
  // Producers and consumers both create what they use: services start in any order.
  topics: [{ topic: Topics.rcsEvents }, { topic: Topics.rcsOutbound }, ...WEBHOOK_TOPICS],
  async start(config: RcsConfig, kit) {
    const directory = await kit.accountDirectory();
    kit.outboxRelay();
    const box = config.RCS_CREDENTIALS_KEY
      ? createSecretBox(parseSecretBoxKey(config.RCS_CREDENTIALS_KEY))
      : undefined;
    const agents = createAgentStore(kit.pool, box);
    /** RBM clients signed with each agent's own service account (delivery, capability, testers). */
    const rbm = createAgentClients(agents, config);
    const messages = createMessageStore(kit.pool);
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
      }),
    );
    const webhookRoutes = startWebhooks(config, box, kit);
    const app = createApp({
      routes: (router) => {
        messageRoutes(router, { agents, messages, capability });
        agentRoutes(router, agents);
        webhookRoutes(router);
      },
      access: rcsAccess({
        verifier: createCredentialVerifier({ directory }),
        limiter: createPostgresRateLimiter({ pool: kit.pool, schema: RCS_SCHEMA }),
        perMinute: config.RCS_RATE_LIMIT_PER_MINUTE,
      }),
      adminBearer: requireServiceToken(config.RCS_ADMIN_TOKEN, {
        realm: 'rcs-agents',
        message: 'Missing or invalid token',
      }),
      logger: kit.logger,
      metrics: kit.metrics,
      readiness: kit.readiness,
      platformReadiness: [rbmReachability(config.RCS_RBM_BASE_URL)],
      trustProxy: config.TRUSTED_PROXIES,
      validateResponses: config.NODE_ENV === 'test',
    });
    /** The account directory (accounts.v1): tests wait on it after publishing an account. */
    return { app, accounts: directory, agents, rbm, capability };
  },
});

/** The whole service, background included, without listening (component tests). */
export const startRcsService = (config: RcsConfig, dependencies: ServiceDependencies) =>
  startWithBackground(rcsService, config, dependencies);

export type RcsService = Awaited<ReturnType<typeof startRcsService>>;

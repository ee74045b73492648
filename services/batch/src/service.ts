import { fileURLToPath } from 'node:url';
import {
  type AccountLookup,
  accountAccess,
  authenticate,
  bearerStrategy,
  createCredentialVerifier,
  createJwtService,
  createPassport,
  createPostgresRateLimiter,
  RATE_LIMIT_MIGRATIONS_DIR,
} from '@msg/auth';
import { OUTBOX_MIGRATIONS_DIR } from '@msg/bus';
import { Topics } from '@msg/contracts';
import { createPostgresIdempotencyStore, IDEMPOTENCY_MIGRATIONS_DIR } from '@msg/http';
import { followOptOuts, OPT_OUT_MIGRATIONS_DIR, optOutsConsumer } from '@msg/optout';
import { defineService, type ServiceDependencies, startWithBackground } from '@msg/service-kit';
import { createPrepaidBilling } from '@msg/sms-submit';
import { createApp } from './app.js';
import { BATCH_SCHEMA } from './batches/batch-row.js';
import { type BatchConfig, loadBatchConfig } from './config.js';
import { STATUS_CONSUMER } from './processing/apply-status.js';
import { startBatchWorkers, startStatusConsumer } from './processing/index.js';

/**
 * The batch schema: the packages' tables (outbox, idempotency keys, rate buckets, the opt-out
 * replica), then its own.
 */
export const BATCH_MIGRATIONS = [
  OUTBOX_MIGRATIONS_DIR,
  IDEMPOTENCY_MIGRATIONS_DIR,
  RATE_LIMIT_MIGRATIONS_DIR,
  OPT_OUT_MIGRATIONS_DIR,
  fileURLToPath(new URL('../prisma/migrations', import.meta.url)),
];

/**
 * The batch service: schema "batch", its topics, the account directory and the opt-out replica
 * before it serves (readiness waits for both); once it listens, the outbox relay (sms.outbound.v1,
 * batch.events.v1), the status consumer (sms.status.v1) and the workers.
 */
export const batchService = defineService({
  name: 'batch',
  loadConfig: loadBatchConfig,
  database: { schema: BATCH_SCHEMA, migrations: BATCH_MIGRATIONS },
  publishes: [Topics.smsOutbound, Topics.batchEvents],
  consumes: [{ topic: Topics.smsStatus, group: STATUS_CONSUMER }, optOutsConsumer(BATCH_SCHEMA)],
  follows: ['accounts', 'protectedSenders'],
  async start(config: BatchConfig, kit) {
    const { pool, bus, logger } = kit;
    const directory = await kit.accountDirectory();
    // The operator's protected sender names, checked with the account's own on `sender_id`.
    const protectedSenders = await kit.protectedSenders();
    // The opt-out lists, read by the workers per chunk (group batch-optouts; readiness waits).
    await followOptOuts(kit, BATCH_SCHEMA);
    const jwt = createJwtService({
      issuer: config.JWT_ISSUER,
      audience: config.JWT_AUDIENCE,
      keys: config.JWT_KEYS,
      activeKid: config.JWT_ACTIVE_KID,
      ttlSeconds: config.JWT_TTL_SECONDS,
    });
    const passport = createPassport({ bearer: bearerStrategy(jwt, directory) });
    const limiter = createPostgresRateLimiter({ pool, schema: BATCH_SCHEMA });
    const app = createApp({
      http: kit.http,
      verifier: createCredentialVerifier({ directory }),
      jwt,
      // 401 without a valid token; 403 and 429 on every call, not only when the token was issued.
      bearer: accountAccess({
        authenticate: authenticate(passport, 'bearer'),
        permission: 'batch_sms',
        limiter,
      }),
      limiter,
      pool,
      protectedSenders,
      // A 32 MB upload may take minutes: its key is held that long before a retry may take it over.
      idempotencyStore: createPostgresIdempotencyStore({
        pool,
        schema: BATCH_SCHEMA,
        leaseMs: 600_000,
      }),
      retentionMs: config.BATCH_RETENTION,
      intake: config,
    });
    kit.outboxRelay();
    kit.afterListen('status-consumer', () =>
      startStatusConsumer({
        bus,
        pool,
        logger,
        metrics: kit.metrics,
        retention: config.BATCH_RETENTION,
      }),
    );
    kit.afterListen('workers', () =>
      startBatchWorkers({
        pool,
        logger,
        accountById: (id) => directory.byId(id),
        billing: createPrepaidBilling({
          adminUrl: config.ADMIN_URL,
          token: config.BILLING_INTERNAL_TOKEN,
          logger,
        }),
        // Until the directory has caught up every account looks unknown: starting a batch then
        // would fail it for nothing.
        ready: () => directory.isReady(),
        config,
      }),
    );
    const accounts: AccountLookup = directory;
    /** The directories of accounts and protected names (tests wait on them after publishing). */
    return { app, accounts, protectedSenders };
  },
});

/** The whole service, consumers and workers included, without listening (component tests). */
export const startBatch = (config: BatchConfig, dependencies: ServiceDependencies) =>
  startWithBackground(batchService, config, dependencies);

export type BatchService = Awaited<ReturnType<typeof startBatch>>;

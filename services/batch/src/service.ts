import { fileURLToPath } from 'node:url';
import {
  type AccountLookup,
  accountAccess,
  authenticate,
  bearerStrategy,
  createAccountDirectory,
  createCredentialVerifier,
  createJwtService,
  createPassport,
  createPostgresRateLimiter,
  RATE_LIMIT_MIGRATIONS_DIR,
} from '@msg/auth';
import { busReadiness, createOutboxRelay, type ServiceRuntime } from '@msg/bus';
import { Topics } from '@msg/contracts';
import { databaseReadiness, migrate } from '@msg/db';
import { createApp } from './app.js';
import { BATCH_SCHEMA } from './batches/batch-row.js';
import type { BatchConfig } from './config.js';
import { startBatchWorkers, startStatusConsumer } from './processing/index.js';

const MIGRATIONS_DIR = fileURLToPath(new URL('../prisma/migrations', import.meta.url));

/**
 * Prepares the batch service: migrates schema "batch", makes sure its topics exist, follows the
 * account directory (readiness waits for it), starts the outbox relay (sms.outbound.v1,
 * callbacks.v1), the status consumer (sms.status.v1) and the workers. Returns the app to listen
 * with and a stop function.
 */
export async function startBatch(config: BatchConfig, { pool, bus, logger }: ServiceRuntime) {
  await migrate({ pool, schema: BATCH_SCHEMA, migrationsDir: MIGRATIONS_DIR, logger });
  await migrate({ pool, schema: BATCH_SCHEMA, migrationsDir: RATE_LIMIT_MIGRATIONS_DIR, logger });
  // Producers and consumers both create what they use: services start in any order.
  await bus.ensureTopics([
    { topic: Topics.smsOutbound },
    { topic: Topics.smsStatus },
    { topic: Topics.callbacks },
  ]);
  // The directory gives every instance a group of its own: every replica must see every account.
  const directory = createAccountDirectory({ bus, logger, groupId: 'batch-accounts' });
  await directory.start();
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
    logger,
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
    retentionMs: config.BATCH_RETENTION,
    intake: config,
    readiness: [databaseReadiness(pool), busReadiness(bus), directory.readiness],
    trustProxy: config.TRUSTED_PROXIES,
    validateResponses: config.NODE_ENV === 'test',
  });
  const relay = createOutboxRelay({ pool, schema: BATCH_SCHEMA, bus, logger });
  relay.start();
  const statusConsumer = await startStatusConsumer({
    bus,
    pool,
    logger,
    retention: config.BATCH_RETENTION,
  });
  const workers = startBatchWorkers({
    pool,
    logger,
    accountById: (id) => directory.byId(id),
    // Until the directory has caught up every account looks unknown: starting a batch then would
    // fail it for nothing.
    ready: () => directory.isReady(),
    config,
  });
  const accounts: AccountLookup = directory;
  return {
    app,
    /** The account directory (tests wait on it after publishing an account). */
    accounts,
    /** Stops the workers and consumers, publishes what is pending, then lets go of the directory. */
    async stop() {
      await workers.stop();
      await statusConsumer.stop();
      await relay.stop();
      await directory.close();
    },
  };
}

export type BatchService = Awaited<ReturnType<typeof startBatch>>;

import { fileURLToPath } from 'node:url';
import {
  authenticate,
  bearerStrategy,
  createAccountDirectory,
  createCredentialVerifier,
  createJwtService,
  createPassport,
  createRateLimiter,
} from '@msg/auth';
import { busReadiness, type ServiceRuntime } from '@msg/bus';
import { Topics } from '@msg/contracts';
import { databaseReadiness, migrate } from '@msg/db';
import { createApp } from './app.js';
import type { BatchConfig } from './config.js';

const MIGRATIONS_DIR = fileURLToPath(new URL('../prisma/migrations', import.meta.url));
export const BATCH_SCHEMA = 'batch';

/** Prepares the batch service: schema, account directory (readiness waits for it), token issuing. */
export async function startBatch(config: BatchConfig, { pool, bus, logger }: ServiceRuntime) {
  await migrate({ pool, schema: BATCH_SCHEMA, migrationsDir: MIGRATIONS_DIR, logger });
  // Consumers create what they read too: batch may start before admin ever has.
  await bus.ensureTopics([{ topic: Topics.accounts, compacted: true }]);
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
  const app = createApp({
    logger,
    verifier: createCredentialVerifier({ directory }),
    jwt,
    bearer: authenticate(passport, 'bearer'),
    limiter: createRateLimiter(),
    readiness: [
      databaseReadiness(pool),
      busReadiness(bus),
      { name: 'account-directory', isReady: () => directory.isReady() },
    ],
    trustProxy: config.TRUSTED_PROXIES,
  });
  return { app, stop: () => directory.close() };
}

import {
  basicAccountAccess,
  createAccountDirectory,
  createCredentialVerifier,
  createPostgresRateLimiter,
  createRateLimiter,
  RATE_LIMIT_MIGRATIONS_DIR,
} from '@msg/auth';
import type { ServiceRuntime } from '@msg/bus';
import { migrate } from '@msg/db';
import { createApp } from './app.js';
import type { LookupLegacyConfig } from './config.js';
import { createLookup } from './lookup/lookup.js';
import { createNumbersClient } from './numbers/numbers-client.js';

/**
 * What the service needs at run time: the bus (accounts.v1) and a logger. A database is optional:
 * with one, the account rates hold across replicas (shared buckets in schema "lookup_legacy");
 * without one, each replica applies the account's rate on its own.
 */
export type LookupLegacyRuntime = Pick<ServiceRuntime, 'bus' | 'logger'> &
  Partial<Pick<ServiceRuntime, 'pool'>>;

const RATE_LIMIT_SCHEMA = 'lookup_legacy';

/**
 * Prepares the legacy lookup: follows the account directory (accounts.v1) and builds the app that
 * answers from the numbers service's internal API. No events sent (spec 6.5); the database, when
 * given, only holds the shared rate-limit buckets.
 */
export async function startLookupLegacy(
  config: LookupLegacyConfig,
  { bus, logger, pool }: LookupLegacyRuntime,
) {
  if (pool) {
    await migrate({
      pool,
      schema: RATE_LIMIT_SCHEMA,
      migrationsDir: RATE_LIMIT_MIGRATIONS_DIR,
      logger,
    });
  }
  // The directory gives every instance a group of its own: every replica must see every account.
  const directory = createAccountDirectory({ bus, logger, groupId: 'lookup-legacy-accounts' });
  await directory.start();
  const numbers = createNumbersClient({
    baseUrl: config.NUMBERS_URL,
    token: config.NUMBERS_INTERNAL_TOKEN,
    timeoutMs: config.NUMBERS_TIMEOUT_MS,
    logger,
  });
  const app = createApp({
    lookup: createLookup(numbers),
    // 401 Basic challenge, 403 disabled / no 'lookup' / outside the IP allow-list, 429 past the rate.
    basicAuth: basicAccountAccess(createCredentialVerifier({ directory }), {
      realm: 'Lookup',
      permission: 'lookup',
      limiter: pool
        ? createPostgresRateLimiter({ pool, schema: RATE_LIMIT_SCHEMA })
        : createRateLimiter(),
    }),
    logger,
    // Not the numbers service: its outage is answered 503 per request, not by leaving the pool.
    readiness: [directory.readiness],
    trustProxy: config.TRUSTED_PROXIES,
    validateResponses: config.NODE_ENV === 'test',
  });
  return {
    app,
    async stop() {
      await directory.close();
    },
  };
}

export type LookupLegacyService = Awaited<ReturnType<typeof startLookupLegacy>>;

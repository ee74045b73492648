import {
  basicAccountAccess,
  createCredentialVerifier,
  createPostgresRateLimiter,
  RATE_LIMIT_MIGRATIONS_DIR,
} from '@msg/auth';
import { internalApiTarget } from '@msg/config';
import { defineService, type ServiceDependencies, startWithBackground } from '@msg/service-kit';
import { createApp } from './app.js';
import { type LookupLegacyConfig, loadLookupLegacyConfig } from './config.js';
import { createLookup } from './lookup/lookup.js';
import { createNumbersClient } from './numbers/numbers-client.js';

/** Its schema holds only the shared per-account rate buckets; the lookups are the numbers service's. */
const LOOKUP_LEGACY_SCHEMA = 'lookup_legacy';

/**
 * The legacy lookup: follows the account directory (accounts.v1) and answers from the numbers
 * service's internal API. No events sent (spec 6.5); its database holds only the rate buckets, so
 * an account's rate holds across replicas as on every other interface.
 */
export const lookupLegacyService = defineService({
  name: 'lookup-legacy',
  loadConfig: loadLookupLegacyConfig,
  database: { schema: LOOKUP_LEGACY_SCHEMA, migrations: [RATE_LIMIT_MIGRATIONS_DIR] },
  follows: ['accounts'],
  async start(config: LookupLegacyConfig, kit) {
    const directory = await kit.accountDirectory();
    const numbers = createNumbersClient({
      ...internalApiTarget('NUMBERS', config),
      logger: kit.logger,
    });
    const app = createApp({
      lookup: createLookup(numbers),
      // 401 Basic challenge, 403 disabled / no 'lookup' / outside the IP allow-list, 429 past the rate.
      basicAuth: basicAccountAccess(createCredentialVerifier({ directory }), {
        realm: 'Lookup',
        permission: 'lookup',
        limiter: createPostgresRateLimiter({ pool: kit.pool, schema: LOOKUP_LEGACY_SCHEMA }),
      }),
      http: kit.http,
      // The database and the directory, not the numbers service: its outage is answered 503 per
      // request, not by leaving the pool.
    });
    return { app };
  },
});

/** The whole service without listening (component tests). */
export const startLookupLegacy = (config: LookupLegacyConfig, dependencies: ServiceDependencies) =>
  startWithBackground(lookupLegacyService, config, dependencies);

export type LookupLegacyService = Awaited<ReturnType<typeof startLookupLegacy>>;

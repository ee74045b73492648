import { basicAccountAccess, createCredentialVerifier, createRateLimiter } from '@msg/auth';
import { defineService, type ServiceDependencies, startWithBackground } from '@msg/service-kit';
import { createApp } from './app.js';
import { type LookupLegacyConfig, loadLookupLegacyConfig } from './config.js';
import { createLookup } from './lookup/lookup.js';
import { createNumbersClient } from './numbers/numbers-client.js';

/**
 * The legacy lookup: follows the account directory (accounts.v1) and answers from the numbers
 * service's internal API. No database, no events sent (spec 6.5).
 */
export const lookupLegacyService = defineService({
  name: 'lookup-legacy',
  loadConfig: loadLookupLegacyConfig,
  async start(config: LookupLegacyConfig, kit) {
    const directory = await kit.accountDirectory();
    const numbers = createNumbersClient({
      baseUrl: config.NUMBERS_URL,
      token: config.NUMBERS_INTERNAL_TOKEN,
      timeoutMs: config.NUMBERS_TIMEOUT_MS,
      logger: kit.logger,
    });
    const app = createApp({
      lookup: createLookup(numbers),
      // 401 Basic challenge, 403 disabled / no 'lookup' / outside the IP allow-list, 429 past the rate.
      basicAuth: basicAccountAccess(createCredentialVerifier({ directory }), {
        realm: 'Lookup',
        permission: 'lookup',
        limiter: createRateLimiter(),
      }),
      logger: kit.logger,
      metrics: kit.metrics,
      // Only the directory: the numbers service's outage is answered 503 per request, not by
      // leaving the pool.
      readiness: kit.readiness,
      trustProxy: config.TRUSTED_PROXIES,
      validateResponses: config.NODE_ENV === 'test',
    });
    return { app };
  },
});

/** The whole service without listening (component tests); needs no database. */
export const startLookupLegacy = (config: LookupLegacyConfig, dependencies: ServiceDependencies) =>
  startWithBackground(lookupLegacyService, config, dependencies);

export type LookupLegacyService = Awaited<ReturnType<typeof startLookupLegacy>>;

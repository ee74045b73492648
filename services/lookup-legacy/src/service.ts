import {
  basicAccountAccess,
  createAccountDirectory,
  createCredentialVerifier,
  createRateLimiter,
} from '@msg/auth';
import type { ServiceRuntime } from '@msg/bus';
import { createApp } from './app.js';
import type { LookupLegacyConfig } from './config.js';
import { createLookup } from './lookup/lookup.js';
import { createNumbersClient } from './numbers/numbers-client.js';

/** What the service needs at run time: no database, only the bus (accounts.v1) and a logger. */
export type LookupLegacyRuntime = Pick<ServiceRuntime, 'bus' | 'logger'>;

/**
 * Prepares the legacy lookup: follows the account directory (accounts.v1) and builds the app that
 * answers from the numbers service's internal API. No database, no events sent (spec 6.5).
 * Accepts a full ServiceRuntime too; its pool is not used.
 */
export async function startLookupLegacy(
  config: LookupLegacyConfig,
  { bus, logger }: LookupLegacyRuntime,
) {
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
      limiter: createRateLimiter(),
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

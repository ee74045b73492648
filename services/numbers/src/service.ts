import { fileURLToPath } from 'node:url';
import {
  type AccountLookup,
  basicAccountAccess,
  createAccountDirectory,
  createCredentialVerifier,
  createPostgresRateLimiter,
  RATE_LIMIT_MIGRATIONS_DIR,
  requireServiceToken,
} from '@msg/auth';
import { busReadiness, type ServiceRuntime } from '@msg/bus';
import { databaseReadiness, migrate } from '@msg/db';
import { createApp } from './app.js';
import type { NumbersConfig } from './config.js';
import { createHlrClient, type HlrClient, noHlr } from './live/hlr-client.js';
import { createLiveStatuses } from './live/live-status.js';
import { createNumberLookup } from './lookup/number-lookup.js';
import { createQuota } from './quota.js';
import { createRegistry } from './registry/registry.js';

export const NUMBERS_SCHEMA = 'numbers';
export const MIGRATIONS_DIR = fileURLToPath(new URL('../prisma/migrations', import.meta.url));

export interface NumbersServiceOptions {
  /** The clock of every answer; tests inject one. */
  now?: () => Date;
}

/** The HLR adapter the configuration asks for; none without HLR_URL. */
export function hlrClientOf(config: NumbersConfig, runtime: ServiceRuntime): HlrClient {
  if (!config.HLR_URL) return noHlr;
  return createHlrClient({
    url: config.HLR_URL,
    username: config.HLR_USERNAME ?? '',
    password: config.HLR_PASSWORD ?? '',
    timeoutMs: config.HLR_TIMEOUT_MS,
    logger: runtime.logger.child({ component: 'hlr' }),
  });
}

/** Migrates schema "numbers"; a no-op when it is up to date. */
export async function migrateNumbers({ pool, logger }: Pick<ServiceRuntime, 'pool' | 'logger'>) {
  return migrate({ pool, schema: NUMBERS_SCHEMA, migrationsDir: MIGRATIONS_DIR, logger });
}

/**
 * Prepares the number intelligence service: migrates schema "numbers", follows the account
 * directory (accounts.v1), wires the registry, the HLR adapter and the quota. Returns the app to
 * listen with and a stop function. Registry snapshots are loaded by the importer (cli.ts).
 */
export async function startNumbersService(
  config: NumbersConfig,
  runtime: ServiceRuntime,
  options: NumbersServiceOptions = {},
) {
  const { pool, bus, logger } = runtime;
  await migrateNumbers(runtime);
  await migrate({ pool, schema: NUMBERS_SCHEMA, migrationsDir: RATE_LIMIT_MIGRATIONS_DIR, logger });
  // The directory gives every instance a group of its own: every replica must see every account.
  const directory = createAccountDirectory({ bus, logger, groupId: 'numbers-accounts' });
  await directory.start();
  const live = createLiveStatuses(pool, hlrClientOf(config, runtime), {
    presentMs: config.LIVE_TTL_PRESENT,
    barredMs: config.LIVE_TTL_BARRED,
    unknownMs: config.LIVE_TTL_UNKNOWN,
  });
  const app = createApp({
    lookup: createNumberLookup({ registry: createRegistry(pool), live }),
    quota: createQuota(pool),
    // Spec part 5 rule 2: Basic only (401 with a challenge for any other scheme), then 403 for a
    // disabled account, no 'numbers' permission or a caller outside its IP allow-list, then 429.
    // View scopes are checked per route.
    basicAuth: basicAccountAccess(createCredentialVerifier({ directory }), {
      realm: 'Number intelligence',
      permission: 'numbers',
      limiter: createPostgresRateLimiter({ pool, schema: NUMBERS_SCHEMA }),
    }),
    internalBearer: requireServiceToken(config.NUMBERS_INTERNAL_TOKEN, {
      realm: 'numbers-internal',
      message: 'Missing or invalid token',
    }),
    problemTypeBase: config.PROBLEM_TYPE_BASE,
    logger,
    readiness: [databaseReadiness(pool), busReadiness(bus), directory.readiness],
    ...(options.now && { now: options.now }),
    trustProxy: config.TRUSTED_PROXIES,
    validateResponses: config.NODE_ENV === 'test',
  });
  const accounts: AccountLookup = directory;
  return {
    app,
    /** The account directory the service authenticates with (accounts.v1). */
    accounts,
    async stop() {
      await directory.close();
    },
  };
}

export type NumbersService = Awaited<ReturnType<typeof startNumbersService>>;

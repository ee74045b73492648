import { fileURLToPath } from 'node:url';
import {
  type AccountLookup,
  basicAccountAccess,
  createCredentialVerifier,
  createPostgresRateLimiter,
  RATE_LIMIT_MIGRATIONS_DIR,
  requireServiceToken,
} from '@msg/auth';
import { migrate } from '@msg/db';
import type { Logger } from '@msg/logger';
import { defineService, type ServiceDependencies, startWithBackground } from '@msg/service-kit';
import type pg from 'pg';
import { createApp } from './app.js';
import { loadNumbersConfig, type NumbersConfig } from './config.js';
import { createHlrClient, type HlrClient, noHlr } from './live/hlr-client.js';
import { createLiveStatuses } from './live/live-status.js';
import { createNumberLookup } from './lookup/number-lookup.js';
import { createQuota } from './quota.js';
import { createRegistry } from './registry/registry.js';

export const NUMBERS_SCHEMA = 'numbers';
/** What the numbers schema is made of: the shared rate buckets (@msg/auth), then its own tables. */
export const NUMBERS_MIGRATIONS = [
  RATE_LIMIT_MIGRATIONS_DIR,
  fileURLToPath(new URL('../prisma/migrations', import.meta.url)),
];

export interface NumbersServiceOptions {
  /** The clock of every answer; tests inject one. */
  now?: () => Date;
}

/** The HLR adapter the configuration asks for; none without HLR_URL. */
export function hlrClientOf(config: NumbersConfig, { logger }: { logger: Logger }): HlrClient {
  if (!config.HLR_URL) return noHlr;
  return createHlrClient({
    url: config.HLR_URL,
    username: config.HLR_USERNAME ?? '',
    password: config.HLR_PASSWORD ?? '',
    timeoutMs: config.HLR_TIMEOUT_MS,
    logger: logger.child({ component: 'hlr' }),
  });
}

/** Migrates schema "numbers"; a no-op when it is up to date (the snapshot importer's CLI). */
export async function migrateNumbers({ pool, logger }: { pool: pg.Pool; logger: Logger }) {
  return migrate({ pool, schema: NUMBERS_SCHEMA, migrationsDirs: NUMBERS_MIGRATIONS, logger });
}

/**
 * The number intelligence service: schema "numbers" and the account directory (accounts.v1)
 * before it serves; the registry, the HLR adapter and the quota. Registry snapshots are loaded
 * by the importer (cli.ts).
 */
export function numbersService(options: NumbersServiceOptions = {}) {
  return defineService({
    name: 'numbers',
    loadConfig: loadNumbersConfig,
    database: { schema: NUMBERS_SCHEMA, migrations: NUMBERS_MIGRATIONS },
    follows: ['accounts'],
    async start(config: NumbersConfig, kit) {
      const directory = await kit.accountDirectory();
      const live = createLiveStatuses(kit.pool, hlrClientOf(config, kit), {
        presentMs: config.LIVE_TTL_PRESENT,
        barredMs: config.LIVE_TTL_BARRED,
        unknownMs: config.LIVE_TTL_UNKNOWN,
      });
      const app = createApp({
        lookup: createNumberLookup({ registry: createRegistry(kit.pool), live }),
        quota: createQuota(kit.pool),
        // Spec part 5 rule 2: Basic only (401 with a challenge for any other scheme), then 403 for
        // a disabled account, no 'numbers' permission or a caller outside its IP allow-list, then
        // 429. View scopes are checked per route.
        basicAuth: basicAccountAccess(createCredentialVerifier({ directory }), {
          realm: 'Number intelligence',
          permission: 'numbers',
          limiter: createPostgresRateLimiter({ pool: kit.pool, schema: NUMBERS_SCHEMA }),
        }),
        internalBearer: requireServiceToken(config.NUMBERS_INTERNAL_TOKEN, {
          realm: 'numbers-internal',
          message: 'Missing or invalid token',
        }),
        problemTypeBase: config.PROBLEM_TYPE_BASE,
        http: kit.http,
        ...(options.now && { now: options.now }),
      });
      const accounts: AccountLookup = directory;
      /** The account directory the service authenticates with (accounts.v1). */
      return { app, accounts };
    },
  });
}

/** The whole service without listening (component tests). */
export const startNumbersService = (
  config: NumbersConfig,
  dependencies: ServiceDependencies,
  options: NumbersServiceOptions = {},
) => startWithBackground(numbersService(options), config, dependencies);

export type NumbersService = Awaited<ReturnType<typeof startNumbersService>>;

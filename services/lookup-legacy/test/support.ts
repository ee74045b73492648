import { hashSecret } from '@msg/auth';
import { createInProcessBus } from '@msg/bus';
import type { AccountState } from '@msg/contracts';
import { createLogger } from '@msg/logger';
import { accountState, publishAccount, startTestRuntime, type TestRuntime } from '@msg/testing';
import request from 'supertest';
import { loadLookupLegacyConfig } from '../src/config.js';
import { startLookupLegacy } from '../src/service.js';
import { NUMBERS_TOKEN } from './fake-numbers.js';

export const PASSWORD = 'correct horse battery staple';

/**
 * The legacy lookup on the in-process bus against `numbersUrl`, with helpers that play the admin
 * service (accounts.v1) and call the three levels. Its rate buckets live in `pool` when given
 * (replicas sharing one database), else in an embedded database of its own.
 */
export async function startTestLookup(
  numbersUrl: string,
  { pool }: { pool?: TestRuntime['pool'] } = {},
) {
  const logger = createLogger({ service: 'lookup-legacy-test', level: 'error' });
  const bus = createInProcessBus({ logger });
  const database = await databaseFor(pool);
  const config = loadLookupLegacyConfig({
    LOG_LEVEL: 'error',
    NODE_ENV: 'test',
    NUMBERS_URL: numbersUrl,
    NUMBERS_INTERNAL_TOKEN: NUMBERS_TOKEN,
    NUMBERS_TIMEOUT_MS: '2s',
  });
  const service = await startLookupLegacy(config, {
    bus,
    logger,
    pool: database.pool,
  });
  const passwordHash = await hashSecret(PASSWORD);

  return {
    app: service.app,

    /** An active account with the 'lookup' permission and the test password; override anything. */
    account(overrides: Partial<AccountState> = {}): AccountState {
      return accountState({
        passwordHash,
        permissions: ['lookup'],
        smsThroughputPerSecond: 25,
        ...overrides,
      });
    },

    /** Publishes as the admin service does, then gives the directory a moment to read it. */
    async publishAccount(state: AccountState): Promise<AccountState> {
      return publishAccount(bus, state);
    },

    get(acct: AccountState, path: string, user = acct.name, password = PASSWORD) {
      return request(service.app).get(path).auth(user, password).set('Accept', 'application/json');
    },

    async stop() {
      await service.stop();
      await bus.close();
      await database.stop();
    },
  };
}

export type TestLookup = Awaited<ReturnType<typeof startTestLookup>>;

/** The given pool (kept open), or an embedded database of the test's own (stopped with it). */
async function databaseFor(pool: TestRuntime['pool'] | undefined) {
  if (pool) return { pool, stop: async () => {} };
  const runtime = await startTestRuntime({ service: 'lookup-legacy' });
  return { pool: runtime.pool, stop: () => runtime.stop() };
}

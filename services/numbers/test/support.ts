import { fileURLToPath } from 'node:url';
import { hashSecret } from '@msg/auth';
import type { AccountState } from '@msg/contracts';
import { type HlrSimulator, startHlrSimulator } from '@msg/hlr-simulator';
import { createLogger, type Logger } from '@msg/logger';
import { accountState, publishAccount, startTestRuntime } from '@msg/testing';
import request from 'supertest';
import { loadNumbersConfig } from '../src/config.js';
import { importSnapshotDirectory } from '../src/registry/importer.js';
import { startNumbersService } from '../src/service.js';

/** Quiet: only errors. */
export const testLogger: Logger = createLogger({ service: 'numbers-test', level: 'error' });

export const PASSWORD = 'correct horse battery staple';
export const INTERNAL_TOKEN = 'internal-token-for-tests-0123456789';
export const PROBLEMS = 'https://problems.example.test/numbers';
export const SAMPLE_SNAPSHOT = fileURLToPath(
  new URL('../../../infra/numbers-registry/sample', import.meta.url),
);
export const fixture = (name: string) =>
  fileURLToPath(new URL(`fixtures/${name}`, import.meta.url));

/** A clock the tests move by hand. */
export function fakeClock(start = '2026-11-21T12:00:00.000Z') {
  let at = Date.parse(start);
  return {
    now: () => new Date(at),
    set(iso: string) {
      at = Date.parse(iso);
    },
    advance(ms: number) {
      at += ms;
    },
  };
}

export interface TestNumbersOptions {
  /** Import the sample snapshot at start; default true. */
  sample?: boolean;
  /** Extra environment for loadNumbersConfig. */
  env?: Record<string, string>;
  /** Start without an HLR (every live status unavailable). */
  noHlr?: boolean;
}

/**
 * The numbers service on embedded Postgres and the in-process bus with the HLR simulator, a fake
 * clock (2026-11-21 12:00 UTC, within the sample snapshot's validity) and helpers that play the
 * admin service (accounts.v1).
 */
export async function startTestNumbers(options: TestNumbersOptions = {}) {
  const runtime = await startTestRuntime({ service: 'numbers' });
  const { pool, bus } = runtime;
  const logger = testLogger;
  const hlrCredentials = 'numbers:hlr-secret';
  const hlr: HlrSimulator = await startHlrSimulator({ credentials: hlrCredentials, logger });
  const clock = fakeClock();
  const config = loadNumbersConfig({
    LOG_LEVEL: 'error',
    NODE_ENV: 'test',
    PROBLEM_TYPE_BASE: PROBLEMS,
    NUMBERS_INTERNAL_TOKEN: INTERNAL_TOKEN,
    ...(options.noHlr
      ? {}
      : { HLR_URL: hlr.url, HLR_USERNAME: 'numbers', HLR_PASSWORD: 'hlr-secret' }),
    ...options.env,
  });
  const numbers = await startNumbersService(config, { pool, bus, logger }, { now: clock.now });
  if (options.sample !== false) await importSnapshotDirectory(pool, SAMPLE_SNAPSHOT, logger);
  const passwordHash = await hashSecret(PASSWORD);

  return {
    app: numbers.app,
    pool,
    hlr,
    clock,

    /** An active account with 'numbers', every scope and the test password; override anything. */
    account(overrides: Partial<AccountState> = {}): AccountState {
      return accountState({
        passwordHash,
        permissions: ['numbers'],
        numberScopes: ['numbers:read', 'numbers:porting-history', 'numbers:live-status'],
        smsThroughputPerSecond: 25,
        ...overrides,
      });
    },

    /** Publishes as the admin service does, then waits until the service's directory has it. */
    async publishAccount(state: AccountState): Promise<AccountState> {
      return publishAccount(bus, state, (s) => numbers.accounts.byId(s.id)?.version === s.version);
    },

    /** GET a view as the account. */
    get(acct: AccountState, path: string) {
      return request(numbers.app).get(path).auth(acct.name, PASSWORD);
    },

    async stop() {
      await numbers.stop();
      await hlr.close();
      await runtime.stop();
    },
  };
}

export type TestNumbers = Awaited<ReturnType<typeof startTestNumbers>>;

import { randomBytes } from 'node:crypto';
import { hashSecret } from '@msg/auth';
import { createInProcessBus } from '@msg/bus';
import { type AccountState, Topics } from '@msg/contracts';
import { createPool, type EmbeddedPostgres, startEmbeddedPostgres } from '@msg/db';
import { createLogger } from '@msg/logger';
import { accountState, publishAccount } from '@msg/testing';
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { loadNotifierConfig } from '../src/config.js';
import { type Notifier, startNotifier } from '../src/service.js';
import { type Receiver, type Reply, startReceiver } from './receiver.js';
import { collectDeadLetters, eventually } from './support.js';

export const PASSWORD = 'correct horse battery staple';
/** The key of this test run's sealed secrets (CALLBACK_SECRETS_KEY). */
export const SECRETS_KEY = randomBytes(32).toString('hex');

/** Quick retries so that a test sees several attempts within a second. */
const baseEnv = {
  LOG_LEVEL: 'error',
  NODE_ENV: 'test',
  CALLBACK_SECRETS_KEY: SECRETS_KEY,
  CALLBACK_ALLOWED_HOSTS: '127.0.0.1',
  CALLBACK_RETRY_BASE: '40ms',
  CALLBACK_RETRY_MAX: '150ms',
  CALLBACK_TIMEOUT_MS: '2000',
  NOTIFIER_POLL_MS: '20',
};

interface CallbackState {
  status: string;
  attempts: number;
  last_error: string | null;
}

/**
 * The notifier's component-test world, registered on the calling test file's hooks: embedded
 * Postgres and the in-process bus for the whole file, a collector of dead letters, and notifiers,
 * receivers and accounts made per test and stopped after it.
 */
export function useNotifierHarness() {
  let database: EmbeddedPostgres;
  let pool: pg.Pool;
  let bus: ReturnType<typeof createInProcessBus>;
  let deadLetters: Awaited<ReturnType<typeof collectDeadLetters>>;
  let passwordHash: string;
  const logger = createLogger({ service: 'notifier-test', level: 'error' });
  const cleanup: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    database = await startEmbeddedPostgres({});
    pool = createPool({ url: database.url, ...database.poolOptions });
    bus = createInProcessBus({ logger });
    await bus.ensureTopics([
      { topic: Topics.callbacks },
      { topic: Topics.batchEvents },
      { topic: Topics.callbacksDlq },
      { topic: Topics.accounts, compacted: true },
    ]);
    deadLetters = await collectDeadLetters(bus, 'test-dead-letters');
    passwordHash = await hashSecret(PASSWORD);
  }, 60_000);

  afterAll(async () => {
    await deadLetters?.stop();
    await bus?.close();
    await pool?.end();
    await database?.stop();
  });

  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  async function rowOf(callbackId: string) {
    const { rows } = await pool.query<CallbackState>(
      'SELECT "status", "attempts", "last_error" FROM "notifier"."callback" WHERE "callback_id" = $1',
      [callbackId],
    );
    return rows[0];
  }

  /** The row once its callback is delivered (waiting for it). */
  async function deliveredRow(callbackId: string): Promise<CallbackState | undefined> {
    let row: CallbackState | undefined;
    await eventually(async () => {
      row = await rowOf(callbackId);
      expect(row?.status).toBe('delivered');
    });
    return row;
  }

  return {
    pool: () => pool,
    bus: () => bus,
    deadLetters: () => deadLetters,
    /** Forgets the last registered cleanup (a test that stopped its notifier itself). */
    forgetLastCleanup: () => void cleanup.pop(),

    async notifier(env: Record<string, string> = {}): Promise<Notifier> {
      const started = await startNotifier(loadNotifierConfig({ ...baseEnv, ...env }), {
        pool,
        bus,
        logger,
      });
      cleanup.push(() => started.stop());
      return started;
    },

    async receiver(reply?: Reply): Promise<Receiver> {
      const started = await startReceiver(reply);
      cleanup.push(() => started.close());
      return started;
    },

    /** An active account with the test password and no permission, as the admin publishes it. */
    async account(overrides: Partial<AccountState> = {}): Promise<AccountState> {
      return publishAccount(bus, accountState({ passwordHash, ...overrides }));
    },

    rowOf,
    deliveredRow,
  };
}

import { createPool } from '@msg/db';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startBatchWorkers } from '../src/processing/index.js';
import {
  accountDirectory,
  batchEvents,
  insertBatch,
  migrateBatchSchema,
  outboundEvents,
  readBatch,
  readMessages,
  TEST_CONFIG,
  testAccount,
  testLogger,
} from './processing-support.js';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/**
 * A database of its own on the real server: workers claim every due batch in the schema, so on
 * the shared 'batch' schema they would also process (and fail, not knowing their accounts) the
 * batches of other suites running at the same time, and theirs would process ours.
 */
const DATABASE = 'batch_processing_it';

function urlOf(database: string): string {
  const url = new URL(DATABASE_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

let admin: pg.Client;
let pools: pg.Pool[] = [];

beforeAll(async () => {
  admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${DATABASE}`);
  pools = [0, 1, 2].map(() => createPool({ url: urlOf(DATABASE), max: 4, logger: testLogger }));
  await migrateBatchSchema(pools[0] as pg.Pool);
});

afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.end()));
  await admin?.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
  await admin?.end();
});

describe('several replicas', () => {
  it('when two worker instances share the database, then every batch starts once and no chunk is expanded twice', async () => {
    const [setup, poolA, poolB] = pools as [pg.Pool, pg.Pool, pg.Pool];
    const account = testAccount({ smsThroughputPerSecond: 100_000 });
    const directory = accountDirectory(account);
    const ids: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      ids.push(
        await insertBatch(setup, {
          accountId: account.id,
          count: 1500,
          callbackUrl: 'https://hooks.example.com/batches',
        }),
      );
    }
    const config = { ...TEST_CONFIG, BATCH_WORKER_INTERVAL: 5, BATCH_CHUNK_SIZE: 25 };
    // Each instance counts its lookups (one per start and per chunk): both must take part.
    const lookups = [0, 0];
    const workers = [poolA, poolB].map((pool, i) =>
      startBatchWorkers({
        pool,
        logger: testLogger,
        accountById: (id) => {
          lookups[i] = (lookups[i] ?? 0) + 1;
          return directory.accountById(id);
        },
        config,
      }),
    );
    try {
      await vi.waitFor(
        async () => {
          for (const id of ids) expect((await readBatch(setup, id)).expanded_through).toBe(1500);
        },
        { timeout: 60_000, interval: 100 },
      );
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
    }

    expect(lookups.every((n) => n > 0)).toBe(true);
    const outbound = await outboundEvents(setup, account.id);
    expect(outbound).toHaveLength(6000);
    const sent = outbound.map((e) => e.value.payload.messageId);
    expect(new Set(sent).size).toBe(6000);
    for (const id of ids) {
      const messages = await readMessages(setup, id);
      expect(messages.every((m) => m.status === 'queued')).toBe(true);
      const mine = new Set(messages.map((m) => m.transaction_id));
      expect(sent.filter((messageId) => mine.has(messageId))).toHaveLength(1500);
      const started = (await batchEvents(setup, id)).filter(
        (e) => e.event_type === 'batch.processing_started',
      );
      expect(started).toHaveLength(1);
    }
  });
});

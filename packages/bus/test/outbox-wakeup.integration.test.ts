import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Bus,
  createInProcessBus,
  createOutboxRelay,
  enqueueOutbox,
  type OutboxRelay,
} from '../src/index.js';
import { eventually, message, quietLogger, testDatabaseUrl, uniqueName } from './helpers.js';
import { createTestSchema, type TestSchema } from './postgres.js';

let db: TestSchema;
let bus: Bus;
const logger = quietLogger();
// Long enough that a test passing within seconds was woken, not polled.
const NEVER = 60_000;

beforeAll(async () => {
  db = await createTestSchema();
  bus = createInProcessBus({ logger });
});
afterAll(async () => {
  await bus?.close();
  await db?.drop();
});

/** The ids of what arrives on `topic`. */
async function receive(topic: string): Promise<string[]> {
  await bus.ensureTopics([{ topic }]);
  const ids: string[] = [];
  await bus.subscribe({
    groupId: uniqueName('reader'),
    topics: [topic],
    handler: async (msg) => void ids.push(msg.value.id),
  });
  return ids;
}

/** The backend pids LISTENing on this schema's outbox channel. */
async function listeners(): Promise<number[]> {
  const { rows } = await db.pool.query<{ pid: number }>(
    `SELECT pid FROM pg_stat_activity WHERE query = $1`,
    [`LISTEN "outbox_${db.schema}"`],
  );
  return rows.map((r) => r.pid);
}

async function withRelay(
  options: Partial<Parameters<typeof createOutboxRelay>[0]>,
  run: (relay: OutboxRelay) => Promise<void>,
): Promise<void> {
  const relay = createOutboxRelay({ pool: db.pool, schema: db.schema, bus, logger, ...options });
  relay.start();
  try {
    await run(relay);
  } finally {
    await relay.stop();
  }
}

describe('outbox relay wake-up', () => {
  it('when an event is committed, then the relay publishes it without waiting for a poll', async () => {
    const topic = uniqueName('wake.commit');
    const ids = await receive(topic);
    await withRelay({ pollIntervalMs: NEVER, fallbackPollMs: NEVER }, async () => {
      await eventually(async () => expect(await listeners()).toHaveLength(1));
      for (const n of [1, 2, 3]) {
        const m = message('k', n);
        await db.transaction((tx) => enqueueOutbox(tx, db.schema, topic, [m]));
        await eventually(() => expect(ids).toContain(m.value.id), 5_000);
      }
    });
    expect(ids).toHaveLength(3);
  });

  it('when the LISTEN connection is killed, then the relay listens again and publishes what came meanwhile', async () => {
    const topic = uniqueName('wake.reconnect');
    const ids = await receive(topic);
    await withRelay({ pollIntervalMs: NEVER, fallbackPollMs: NEVER }, async () => {
      await eventually(async () => expect(await listeners()).toHaveLength(1));
      const [pid] = await listeners();
      await db.pool.query('SELECT pg_terminate_backend($1)', [pid]);
      const m = message('k', 1);
      await enqueueOutbox(db.pool, db.schema, topic, [m]);
      await eventually(() => expect(ids).toEqual([m.value.id]), 10_000);
      expect(await listeners()).not.toContain(pid);
    });
  });

  it('when a row arrives without a notification, then the fallback poll publishes it', async () => {
    const topic = uniqueName('wake.lost');
    const ids = await receive(topic);
    await withRelay({ pollIntervalMs: NEVER, fallbackPollMs: 300 }, async () => {
      await eventually(async () => expect(await listeners()).toHaveLength(1));
      const m = message('k', 1);
      // What enqueueOutbox writes, minus its pg_notify: a lost notification.
      await db.pool.query(
        `INSERT INTO "${db.schema}".outbox_event (id, topic, key, value) VALUES ($1, $2, $3, $4)`,
        [m.value.id, topic, m.key, JSON.stringify(m.value)],
      );
      await eventually(() => expect(ids).toEqual([m.value.id]), 5_000);
    });
  });

  it('when the pool has one connection, then the relay does not LISTEN (it would hold the only session) and polls', async () => {
    const topic = uniqueName('wake.single');
    const ids = await receive(topic);
    const single = new pg.Pool({ connectionString: testDatabaseUrl, max: 1 });
    const relay = createOutboxRelay({
      pool: single,
      schema: db.schema,
      bus,
      logger,
      pollIntervalMs: 50,
    });
    relay.start();
    try {
      const m = message('k', 1);
      await enqueueOutbox(single, db.schema, topic, [m]);
      await eventually(() => expect(ids).toEqual([m.value.id]), 5_000);
      expect(await listeners()).toEqual([]);
    } finally {
      await relay.stop();
      await single.end();
    }
  });
});

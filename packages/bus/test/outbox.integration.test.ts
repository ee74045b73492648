import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Bus,
  type BusMessage,
  claimEvent,
  createInProcessBus,
  createKafkaBus,
  createOutboxRelay,
  enqueueOutbox,
  type Subscription,
} from '../src/index.js';
import {
  eventually,
  message,
  payloadOf,
  quietLogger,
  testKafkaBrokers,
  uniqueName,
} from './helpers.js';
import { createTestSchema, type TestSchema } from './postgres.js';

let db: TestSchema;
let kafka: Bus;
const logger = quietLogger();

beforeAll(async () => {
  db = await createTestSchema();
  kafka = createKafkaBus({ brokers: testKafkaBrokers, clientId: 'outbox-test', logger });
});
afterAll(async () => {
  await kafka?.close();
  await db?.drop();
});

async function unpublishedCount(): Promise<number> {
  const { rows } = await db.pool.query<{ n: string }>(
    `SELECT count(*) AS n FROM "${db.schema}".outbox_event WHERE published_at IS NULL`,
  );
  return Number(rows[0]?.n);
}

/** Every message on `topic` from the beginning, as a fresh group sees it. */
async function readAll(bus: Bus, topic: string): Promise<{ ids: string[]; sub: Subscription }> {
  const ids: string[] = [];
  const sub = await bus.subscribe({
    groupId: uniqueName('reader'),
    topics: [topic],
    fromBeginning: true,
    handler: async (msg) => void ids.push(msg.value.id),
  });
  return { ids, sub };
}

describe('enqueueOutbox', () => {
  it('when the transaction rolls back, then nothing is left to publish', async () => {
    const topic = uniqueName('outbox.rollback');
    await db
      .transaction(async (tx) => {
        await enqueueOutbox(tx, db.schema, topic, [message('k', 1)]);
        throw new Error('state change failed');
      })
      .catch(() => {});
    const { rows } = await db.pool.query(
      `SELECT 1 FROM "${db.schema}".outbox_event WHERE topic = $1`,
      [topic],
    );
    expect(rows).toHaveLength(0);
  });

  it('when the same event is enqueued twice, then it is stored once', async () => {
    const topic = uniqueName('outbox.twice');
    const m = message('k', 1);
    await enqueueOutbox(db.pool, db.schema, topic, [m]);
    await enqueueOutbox(db.pool, db.schema, topic, [m]);
    const { rows } = await db.pool.query(
      `SELECT id FROM "${db.schema}".outbox_event WHERE topic = $1`,
      [topic],
    );
    expect(rows).toEqual([{ id: m.value.id }]);
    await db.pool.query(`DELETE FROM "${db.schema}".outbox_event WHERE topic = $1`, [topic]);
  });
});

describe('claimEvent', () => {
  it('when an event is claimed twice by one consumer, then only the first claim wins; other consumers claim it too', async () => {
    const id = crypto.randomUUID();
    expect(await claimEvent(db.pool, db.schema, 'notifier', id)).toBe(true);
    expect(await claimEvent(db.pool, db.schema, 'notifier', id)).toBe(false);
    expect(await claimEvent(db.pool, db.schema, 'batch', id)).toBe(true);
  });

  it('when the claiming transaction rolls back, then the event can be claimed again', async () => {
    const id = crypto.randomUUID();
    await db
      .transaction(async (tx) => {
        expect(await claimEvent(tx, db.schema, 'notifier', id)).toBe(true);
        throw new Error('handler failed');
      })
      .catch(() => {});
    expect(await claimEvent(db.pool, db.schema, 'notifier', id)).toBe(true);
  });
});

describe('outbox relay', () => {
  it('when events are enqueued in a transaction, then the relay publishes them to Kafka in order and a consumer gets them', async () => {
    const topic = uniqueName('outbox.e2e');
    const other = uniqueName('outbox.e2e-other');
    await kafka.ensureTopics([{ topic }, { topic: other }]);
    const received: { topic: string; key: string | null; n: number }[] = [];
    const sub = await kafka.subscribe({
      groupId: uniqueName('e2e'),
      topics: [topic, other],
      handler: async (msg) =>
        void received.push({ topic: msg.topic, key: msg.key, n: payloadOf(msg).n }),
    });
    const relay = createOutboxRelay({
      pool: db.pool,
      schema: db.schema,
      bus: kafka,
      logger,
      pollIntervalMs: 50,
    });
    relay.start();
    try {
      const sent: BusMessage[] = Array.from({ length: 30 }, (_, n) => message(`acct-${n % 3}`, n));
      await db.transaction(async (tx) => {
        await enqueueOutbox(tx, db.schema, topic, sent.slice(0, 20));
        await enqueueOutbox(tx, db.schema, other, sent.slice(20, 25));
        await enqueueOutbox(tx, db.schema, topic, sent.slice(25));
      });

      await eventually(() => expect(received).toHaveLength(30));
      // Order holds per key within a topic (one partition); two topics are consumed in parallel.
      for (const t of [topic, other]) {
        for (const key of ['acct-0', 'acct-1', 'acct-2']) {
          const ns = received.filter((r) => r.topic === t && r.key === key).map((r) => r.n);
          expect(ns).toEqual([...ns].sort((a, b) => a - b));
        }
      }
      await eventually(async () => expect(await unpublishedCount()).toBe(0));
    } finally {
      await relay.stop();
      await sub.stop();
    }
  });

  it('when two relays race on one table, then every row is published exactly once', async () => {
    const topic = uniqueName('outbox.race');
    await kafka.ensureTopics([{ topic }]);
    const sent = Array.from({ length: 400 }, (_, n) => message(`k${n % 7}`, n));
    await enqueueOutbox(db.pool, db.schema, topic, sent);
    const relays = [1, 2].map(() =>
      createOutboxRelay({ pool: db.pool, schema: db.schema, bus: kafka, logger, batchSize: 25 }),
    );

    const counts = await Promise.all(relays.map((r) => r.drain()));

    expect(counts.reduce((a, b) => a + b, 0)).toBe(400);
    expect(await unpublishedCount()).toBe(0);
    const { ids, sub } = await readAll(kafka, topic);
    await sub.caughtUp();
    await sub.stop();
    expect(ids).toHaveLength(400);
    expect(new Set(ids)).toEqual(new Set(sent.map((m) => m.value.id)));
  });

  it('when publishing succeeds but marking fails, then the rows are published again and consumers dedupe them', async () => {
    const bus = createInProcessBus({ logger });
    const topic = 'outbox.crash';
    await bus.ensureTopics([{ topic }]);
    let crashes = 1;
    // Publishes, then fails as if the process died before the relay's commit.
    const crashingBus: Bus = {
      ...bus,
      async publish(t, messages) {
        await bus.publish(t, messages);
        if (crashes-- > 0) throw new Error('crash after publish');
      },
    };
    const handled: string[] = [];
    let deliveries = 0;
    await bus.subscribe({
      groupId: 'consumer',
      topics: [topic],
      handler: async (msg) => {
        deliveries++;
        if (await claimEvent(db.pool, db.schema, 'crash-test', msg.value.id))
          handled.push(msg.value.id);
      },
    });
    const sent = Array.from({ length: 5 }, (_, n) => message('k', n));
    await enqueueOutbox(db.pool, db.schema, topic, sent);
    const relay = createOutboxRelay({ pool: db.pool, schema: db.schema, bus: crashingBus, logger });

    await expect(relay.drain()).rejects.toThrow('crash after publish');
    expect(await relay.drain()).toBe(5);

    await eventually(() => expect(deliveries).toBe(10));
    expect(handled).toEqual(sent.map((m) => m.value.id));
    await bus.close();
  });
});

describe('retention', () => {
  it('when rows are past their retention, then purge deletes published rows and old marks only', async () => {
    const topic = uniqueName('outbox.purge');
    const bus = createInProcessBus({ logger });
    await bus.ensureTopics([{ topic }]);
    const relay = createOutboxRelay({
      pool: db.pool,
      schema: db.schema,
      bus,
      logger,
      retainPublishedMs: 0,
      retainProcessedMs: 60_000,
    });
    await enqueueOutbox(db.pool, db.schema, topic, [message('k', 1), message('k', 2)]);
    await relay.drain();
    await enqueueOutbox(db.pool, db.schema, topic, [message('k', 3)]);
    await claimEvent(db.pool, db.schema, 'purge-test', 'old-event');
    await claimEvent(db.pool, db.schema, 'purge-test', 'new-event');
    await db.pool.query(
      `UPDATE "${db.schema}".processed_event SET processed_at = now() - interval '2 minutes'
       WHERE event_id = 'old-event'`,
    );

    const purged = await relay.purge();

    expect(purged.processed).toBe(1);
    expect(purged.outbox).toBeGreaterThanOrEqual(2);
    expect(await unpublishedCount()).toBe(1);
    const { rows } = await db.pool.query(
      `SELECT event_id FROM "${db.schema}".processed_event WHERE consumer = 'purge-test'`,
    );
    expect(rows.map((r) => r.event_id)).toEqual(['new-event']);
    await bus.close();
  });
});

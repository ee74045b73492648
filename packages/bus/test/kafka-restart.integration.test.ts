import { type PrivateKafka, startPrivateKafka } from '@msg/kafka';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Bus,
  claimEvent,
  createKafkaBus,
  createOutboxRelay,
  enqueueOutbox,
  type Subscription,
} from '../src/index.js';
import { eventually, message, quietLogger } from './helpers.js';
import { createTestSchema, type TestSchema } from './postgres.js';

describe('kafka bus across a broker restart', () => {
  let broker: PrivateKafka;
  let db: TestSchema;
  let bus: Bus;
  let subscription: Subscription | undefined;

  beforeAll(async () => {
    [broker, db] = await Promise.all([startPrivateKafka(), createTestSchema()]);
    bus = createKafkaBus({
      brokers: [broker.brokers],
      clientId: 'restart-test',
      logger: quietLogger(),
      // The consumer that crashed while the broker was away rejoins as a new member; the group
      // waits this long for the old one before rebalancing.
      sessionTimeoutMs: 10_000,
      handlerRetry: { initialDelayMs: 50, maxDelayMs: 500 },
    });
  });
  afterAll(async () => {
    await subscription?.stop();
    await bus?.close();
    await Promise.all([broker?.stop(), db?.drop()]);
  });

  it('when the broker restarts between enqueue and delivery, then every event is consumed and nothing is lost', async () => {
    const topic = 'restart.events.v1';
    await bus.ensureTopics([{ topic }]);
    const delivered = new Set<string>();
    let firstDeliveries = 0;
    subscription = await bus.subscribe({
      groupId: 'restart-consumer',
      topics: [topic],
      handler: async (msg) => {
        if (await claimEvent(db.pool, db.schema, 'restart-consumer', msg.value.id)) {
          firstDeliveries++;
          delivered.add(msg.value.id);
        }
      },
    });
    const relay = createOutboxRelay({
      pool: db.pool,
      schema: db.schema,
      bus,
      logger: quietLogger(),
      pollIntervalMs: 100,
    });
    const batch = (from: number) =>
      Array.from({ length: 100 }, (_, i) => message(`acct-${i % 10}`, from + i));
    const sent = [...batch(0), ...batch(100), ...batch(200)];

    await enqueueOutbox(db.pool, db.schema, topic, sent.slice(0, 100));
    await relay.drain();
    await enqueueOutbox(db.pool, db.schema, topic, sent.slice(100, 200));
    await broker.pause();
    relay.start();
    await enqueueOutbox(db.pool, db.schema, topic, sent.slice(200));
    await broker.resume();

    try {
      await eventually(() => expect(delivered.size).toBe(300), 90_000);
      expect(firstDeliveries).toBe(300);
      expect(delivered).toEqual(new Set(sent.map((m) => m.value.id)));
      const { rows } = await db.pool.query(
        `SELECT count(*)::int AS n FROM "${db.schema}".outbox_event WHERE published_at IS NULL`,
      );
      expect(rows[0]).toEqual({ n: 0 });
    } finally {
      await relay.stop();
    }
  });
});

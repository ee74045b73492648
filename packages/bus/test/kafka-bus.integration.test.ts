import { setTimeout as sleep } from 'node:timers/promises';
import { makeEvent, Topics } from '@msg/contracts';
import { ConfigResourceTypes, Kafka, logLevel } from 'kafkajs';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Bus, createKafkaBus, DeadLetterHeader } from '../src/index.js';
import { encodeMessage } from '../src/kafka-codec.js';
import { busContract } from './bus-contract.js';
import { eventContractTests } from './event-contract.js';
import {
  eventually,
  message,
  payloadOf,
  quietLogger,
  testKafkaBrokers,
  testSchemaOf,
  uniqueName,
} from './helpers.js';
import { connectTestAdmin, waitForStableGroup } from './kafka-admin.js';

const fastRetry = { initialDelayMs: 20, maxDelayMs: 100 };

busContract('kafka bus', async () => {
  const admin = await connectTestAdmin(testKafkaBrokers);
  const bus = createKafkaBus({
    brokers: testKafkaBrokers,
    clientId: 'bus-contract-test',
    logger: quietLogger(),
    handlerRetry: fastRetry,
  });
  return {
    bus,
    groupSettled: (groupId, members) => waitForStableGroup(admin, groupId, members),
    async close() {
      await bus.close();
      await admin.disconnect();
    },
  };
});

eventContractTests('kafka bus', async () => {
  const bus = createKafkaBus({
    brokers: testKafkaBrokers,
    clientId: 'bus-event-contract-test',
    logger: quietLogger(),
    handlerRetry: fastRetry,
    schemaOf: testSchemaOf,
  });
  // Another producer on the same topics, one that checks nothing.
  const producer = new Kafka({ brokers: testKafkaBrokers, logLevel: logLevel.NOTHING }).producer();
  await producer.connect();
  return {
    bus,
    async publishUnchecked(topic, messages) {
      await producer.send({ topic, messages: messages.map(encodeMessage) });
    },
    async close() {
      await producer.disconnect();
      await bus.close();
    },
  };
});

describe('kafka bus', () => {
  let bus: Bus;
  const admin = connectTestAdmin(testKafkaBrokers);

  beforeAll(() => {
    bus = createKafkaBus({
      brokers: testKafkaBrokers,
      clientId: 'bus-kafka-test',
      logger: quietLogger(),
      handlerRetry: fastRetry,
    });
  });
  afterAll(async () => {
    await bus.close();
    await (await admin).disconnect();
  });

  it('when topics are ensured, then they get the asked partitions and compaction', async () => {
    const compacted = uniqueName('compacted');
    const plain = uniqueName('plain');
    await bus.ensureTopics([
      { topic: compacted, compacted: true, partitions: 2 },
      { topic: plain },
    ]);

    const { topics } = await (await admin).fetchTopicMetadata({ topics: [compacted, plain] });
    expect(topics.find((t) => t.name === compacted)?.partitions).toHaveLength(2);
    expect(topics.find((t) => t.name === plain)?.partitions).toHaveLength(3);
    const configs = await (await admin).describeConfigs({
      includeSynonyms: false,
      resources: [
        { type: ConfigResourceTypes.TOPIC, name: compacted, configNames: ['cleanup.policy'] },
        { type: ConfigResourceTypes.TOPIC, name: plain, configNames: ['cleanup.policy'] },
      ],
    });
    const policy = (name: string) =>
      configs.resources.find((r) => r.resourceName === name)?.configEntries[0]?.configValue;
    expect(policy(compacted)).toBe('compact');
    expect(policy(plain)).toBe('delete');
  });

  it('when several services ensure the same new topics at once, then every one of them starts', async () => {
    // As on a brand-new cluster, where every service creates what it uses at start-up.
    const others = [1, 2, 3].map((n) =>
      createKafkaBus({
        brokers: testKafkaBrokers,
        clientId: `bus-race-${n}`,
        logger: quietLogger(),
      }),
    );
    try {
      for (let round = 0; round < 3; round += 1) {
        const topics = [uniqueName('race'), uniqueName('race'), uniqueName('race')].map(
          (topic) => ({
            topic,
          }),
        );
        const results = await Promise.allSettled(
          [bus, ...others].map((b) => b.ensureTopics(topics)),
        );
        expect(results.map((r) => r.status)).toEqual(Array(4).fill('fulfilled'));
        const { topics: described } = await (await admin).fetchTopicMetadata({
          topics: topics.map((t) => t.topic),
        });
        expect(described.every((t) => t.partitions.every((p) => p.leader >= 0))).toBe(true);
      }
    } finally {
      await Promise.all(others.map((b) => b.close()));
    }
  });

  it('when connected, then the bus is ready', async () => {
    await eventually(() => expect(bus.isReady()).toBe(true));
  });

  /**
   * A bus of its own with a metrics registry, subscribed in a new group to a new one-partition
   * topic and recording what it handles; `value` reads one of the registry's samples.
   */
  async function observedSubscription(clientId: string) {
    const metrics = new Registry();
    const observed = createKafkaBus({
      brokers: testKafkaBrokers,
      clientId,
      logger: quietLogger(),
      metrics,
    });
    const value = async (name: string, labels: Record<string, string>) => {
      const metric = (await metrics.getMetricsAsJSON()).find((m) => m.name === name);
      const sample = metric?.values.find((v) =>
        Object.entries(labels).every(([k, l]) => v.labels[k] === l),
      );
      return sample?.value;
    };
    const topic = uniqueName(clientId);
    const groupId = uniqueName('g');
    const handled: number[] = [];
    try {
      await observed.ensureTopics([{ topic, partitions: 1 }]);
      const sub = await observed.subscribe({
        groupId,
        topics: [topic],
        handler: async (msg) => {
          handled.push(payloadOf(msg).n);
        },
      });
      return { observed, value, topic, groupId, handled, sub };
    } catch (error) {
      await observed.close();
      throw error;
    }
  }

  it('when a consumer joins, handles and stops, then its group membership and lag are metrics', async () => {
    const { observed, value, topic, groupId, handled, sub } =
      await observedSubscription('bus-metrics-test');
    try {
      await eventually(async () =>
        expect(await value('bus_consumer_joined', { group: groupId })).toBe(1),
      );
      await observed.publish(topic, [message('a', 1), message('a', 2)]);
      await eventually(() => expect(handled).toEqual([1, 2]));
      await eventually(async () =>
        expect(await value('bus_consumer_lag', { group: groupId, topic, partition: '0' })).toBe(0),
      );
      expect(await value('bus_connected', {})).toBe(1);
      await sub.stop();
      expect(await value('bus_consumer_joined', { group: groupId })).toBe(0);
    } finally {
      await observed.close();
    }
  });

  it('when messages arrive one batch at a time, then the group commits at most once a second, and what it handled is committed within seconds once it is idle', async () => {
    const { observed, value, topic, groupId, handled, sub } =
      await observedSubscription('bus-commit-test');
    const commits = async () => (await value('bus_offset_commits_total', { group: groupId })) ?? 0;
    const count = 40;
    try {
      const started = Date.now();
      // Each message published after the last was handled: one fetched batch each.
      for (let n = 1; n <= count; n++) {
        await observed.publish(topic, [message('a', n)]);
        await eventually(() => expect(handled).toHaveLength(n));
      }
      const seconds = (Date.now() - started) / 1000;
      // kafkajs' auto-commit would have made one commit per batch: 40.
      expect(await commits()).toBeLessThanOrEqual(Math.ceil(seconds) + 1);
      // Idle now: the last offset is committed without another batch or a stop.
      await eventually(async () => {
        const [committed] = await (await admin).fetchOffsets({ groupId, topics: [topic] });
        expect(committed?.partitions[0]?.offset).toBe(String(count));
      }, 10_000);
      await sub.stop();
    } finally {
      await observed.close();
    }
  });

  it('when handlers run longer than the session timeout, then heartbeats keep the partition and each message is handled once', async () => {
    // 6 s is the broker's smallest allowed session; the handlers take 9 s.
    const slow = createKafkaBus({
      brokers: testKafkaBrokers,
      clientId: 'bus-heartbeat-test',
      logger: quietLogger(),
      sessionTimeoutMs: 6_000,
    });
    const topic = uniqueName('slow');
    try {
      await slow.ensureTopics([{ topic, partitions: 1 }]);
      await slow.publish(topic, [message('a', 1), message('b', 2)]);
      const deliveries = new Map<number, number>();
      const sub = await slow.subscribe({
        groupId: uniqueName('g'),
        topics: [topic],
        fromBeginning: true,
        concurrency: 2,
        handler: async (msg) => {
          const { n } = payloadOf(msg);
          deliveries.set(n, (deliveries.get(n) ?? 0) + 1);
          await sleep(9_000);
        },
      });
      await sub.caughtUp();
      // A member that missed its session would be dropped, and its batch fetched again.
      await sleep(3_000);
      await sub.stop();
      expect(Object.fromEntries(deliveries)).toEqual({ 1: 1, 2: 1 });
    } finally {
      await slow.close();
    }
  });

  it('when a record on the topic is not an event envelope, then it is dead-lettered at once and later messages flow', async () => {
    const topic = uniqueName('garbage');
    await bus.ensureTopics([{ topic, partitions: 1 }]);
    const handled: string[] = [];
    const sub = await bus.subscribe({
      groupId: uniqueName('g'),
      topics: [topic],
      handler: async (msg) => void handled.push(msg.value.id),
    });
    const kafka = new Kafka({
      clientId: 'raw',
      brokers: testKafkaBrokers,
      logLevel: logLevel.NOTHING,
    });
    const raw = kafka.producer();
    await raw.connect();
    await raw.send({ topic, messages: [{ key: 'k', value: 'not json' }] });
    await raw.disconnect();
    const good = makeEvent('test.event', {});
    await bus.publish(topic, [{ key: 'k', value: good }]);
    await eventually(() => expect(handled).toEqual([good.id]));

    // The bus cannot hand undecodable records to a handler, so read the dead-letter topic raw.
    const letters: { value: string; headers: Record<string, string> }[] = [];
    const reader = kafka.consumer({ groupId: uniqueName('dlq-reader') });
    await reader.connect();
    await reader.subscribe({ topics: [Topics.deadLetter], fromBeginning: true });
    await reader.run({
      eachMessage: async ({ message }) => {
        const headers = Object.fromEntries(
          Object.entries(message.headers ?? {}).map(([k, v]) => [k, String(v)]),
        );
        if (headers[DeadLetterHeader.originTopic] === topic) {
          letters.push({ value: String(message.value), headers });
        }
      },
    });
    try {
      await eventually(() => expect(letters).toHaveLength(1));
      expect(letters[0]?.value).toBe('not json');
      expect(letters[0]?.headers).toMatchObject({
        [DeadLetterHeader.originOffset]: '0',
        [DeadLetterHeader.attempts]: '0',
      });
      expect(letters[0]?.headers[DeadLetterHeader.error]).toContain('not JSON');
    } finally {
      await reader.disconnect();
      await sub.stop();
    }
  });
});

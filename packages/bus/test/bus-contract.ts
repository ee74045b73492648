import { setTimeout as sleep } from 'node:timers/promises';
import { Topics } from '@msg/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type Bus,
  type ConsumedMessage,
  DeadLetterHeader,
  type SubscribeOptions,
  type Subscription,
} from '../src/index.js';
import { eventually, message, payloadOf, uniqueName } from './helpers.js';

export interface BusHarness {
  bus: Bus;
  /** Resolves once the group has this many members with partitions assigned. */
  groupSettled(groupId: string, members: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * The semantics every Bus must have, run against the in-process bus (unit) and against real
 * Kafka (integration), so the embedded mode behaves like production.
 */
export function busContract(name: string, makeHarness: () => Promise<BusHarness>): void {
  describe(`${name} (bus contract)`, () => {
    let harness: BusHarness;
    let bus: Bus;
    const subscriptions: Subscription[] = [];

    beforeAll(async () => {
      harness = await makeHarness();
      bus = harness.bus;
    });
    afterEach(async () => {
      await Promise.all(subscriptions.splice(0).map((s) => s.stop()));
    });
    afterAll(async () => {
      await harness?.close();
    });

    async function newTopic(spec: { partitions?: number; compacted?: boolean } = {}) {
      const topic = uniqueName('contract');
      await bus.ensureTopics([{ topic, ...spec }]);
      return topic;
    }

    async function subscribe(opts: SubscribeOptions): Promise<Subscription> {
      const subscription = await bus.subscribe(opts);
      subscriptions.push(subscription);
      return subscription;
    }

    function collector() {
      const received: ConsumedMessage[] = [];
      return { received, handler: async (msg: ConsumedMessage) => void received.push(msg) };
    }

    describe('publish and subscribe', () => {
      it('when messages with one key are published, then a subscriber gets them in order with key, headers and envelope intact', async () => {
        const topic = await newTopic();
        const { received, handler } = collector();
        await subscribe({ groupId: uniqueName('g'), topics: [topic], handler });
        const sent = Array.from({ length: 20 }, (_, n) =>
          message('account-1', n, { 'x-trace': `t${n}` }),
        );
        await bus.publish(topic, sent.slice(0, 10));
        await bus.publish(topic, sent.slice(10));

        await eventually(() => expect(received).toHaveLength(20));
        expect(received.map((m) => m.value)).toEqual(sent.map((m) => m.value));
        expect(received.map((m) => m.value.id)).toEqual(sent.map((m) => m.value.id));
        const first = received[0];
        expect(first?.key).toBe('account-1');
        expect(first?.topic).toBe(topic);
        expect(first?.headers['x-trace']).toBe('t0');
        const offsets = received.map((m) => BigInt(m.offset));
        expect(offsets).toEqual([...offsets].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
        expect(new Set(received.map((m) => m.partition)).size).toBe(1);
      });

      it('when many keys are published, then each key keeps its own order', async () => {
        const topic = await newTopic();
        const { received, handler } = collector();
        await subscribe({ groupId: uniqueName('g'), topics: [topic], handler });
        const sent = Array.from({ length: 60 }, (_, n) => message(`key-${n % 6}`, n));
        await bus.publish(topic, sent);

        await eventually(() => expect(received).toHaveLength(60));
        for (let k = 0; k < 6; k++) {
          const ns = received.filter((m) => m.key === `key-${k}`).map((m) => payloadOf(m).n);
          expect(ns).toEqual(sent.flatMap((m, n) => (m.key === `key-${k}` ? [n] : [])));
        }
      });

      it('when the topic does not exist, then subscribing fails with a clear error', async () => {
        await expect(
          bus.subscribe({
            groupId: uniqueName('g'),
            topics: [uniqueName('missing')],
            handler: async () => {},
          }),
        ).rejects.toThrow(/ensureTopics/);
      });

      it('when ensureTopics is called again for existing topics, then it succeeds and keeps their messages', async () => {
        const topic = await newTopic();
        await bus.publish(topic, [message('k', 1)]);
        await bus.ensureTopics([{ topic }, { topic }]);
        const { received, handler } = collector();
        await subscribe({
          groupId: uniqueName('g'),
          topics: [topic],
          fromBeginning: true,
          handler,
        });
        await eventually(() => expect(received).toHaveLength(1));
      });
    });

    describe('consumer groups', () => {
      it('when two groups subscribe, then each group gets every message', async () => {
        const topic = await newTopic();
        const a = collector();
        const b = collector();
        await subscribe({ groupId: uniqueName('ga'), topics: [topic], handler: a.handler });
        await subscribe({ groupId: uniqueName('gb'), topics: [topic], handler: b.handler });
        await bus.publish(
          topic,
          Array.from({ length: 10 }, (_, n) => message(`k${n}`, n)),
        );

        await eventually(() => {
          expect(a.received).toHaveLength(10);
          expect(b.received).toHaveLength(10);
        });
      });

      it('when two subscribers share a group, then each message is handled once by one of them', async () => {
        const topic = await newTopic({ partitions: 4 });
        const groupId = uniqueName('shared');
        const a = collector();
        const b = collector();
        await subscribe({ groupId, topics: [topic], handler: a.handler });
        await subscribe({ groupId, topics: [topic], handler: b.handler });
        await harness.groupSettled(groupId, 2);
        const sent = Array.from({ length: 40 }, (_, n) => message(`key-${n}`, n));
        await bus.publish(topic, sent);

        await eventually(() => expect(a.received.length + b.received.length).toBe(40));
        const ids = [...a.received, ...b.received].map((m) => m.value.id);
        expect(new Set(ids)).toEqual(new Set(sent.map((m) => m.value.id)));
        expect(a.received.length).toBeGreaterThan(0);
        expect(b.received.length).toBeGreaterThan(0);
      });

      it('when a group subscribes from the beginning, then it gets earlier messages; without it, only new ones', async () => {
        const topic = await newTopic();
        await bus.publish(topic, [message('k', 1), message('k', 2)]);
        const replay = collector();
        const fresh = collector();
        await subscribe({
          groupId: uniqueName('g'),
          topics: [topic],
          fromBeginning: true,
          handler: replay.handler,
        });
        await subscribe({ groupId: uniqueName('g'), topics: [topic], handler: fresh.handler });
        await bus.publish(topic, [message('k', 3)]);

        await eventually(() => {
          expect(replay.received.map((m) => payloadOf(m).n)).toEqual([1, 2, 3]);
          expect(fresh.received.map((m) => payloadOf(m).n)).toEqual([3]);
        });
      });

      it('when a subscriber stops and its group subscribes again, then it resumes after what was handled', async () => {
        const topic = await newTopic();
        const groupId = uniqueName('resume');
        const first = collector();
        const firstSub = await bus.subscribe({
          groupId,
          topics: [topic],
          fromBeginning: true,
          handler: first.handler,
        });
        await bus.publish(topic, [message('k', 1), message('k', 2)]);
        await eventually(() => expect(first.received).toHaveLength(2));
        await firstSub.stop();

        await bus.publish(topic, [message('k', 3)]);
        const second = collector();
        await subscribe({ groupId, topics: [topic], fromBeginning: true, handler: second.handler });
        await eventually(() => expect(second.received.map((m) => payloadOf(m).n)).toEqual([3]));
      });
    });

    describe('caughtUp', () => {
      it('when messages exist at subscribe time, then caughtUp resolves only after all of them are handled', async () => {
        const topic = await newTopic();
        const sent = Array.from({ length: 30 }, (_, n) => message(`k${n % 5}`, n));
        await bus.publish(topic, sent);
        const handled = new Set<string>();
        const subscription = await subscribe({
          groupId: uniqueName('g'),
          topics: [topic],
          fromBeginning: true,
          handler: async (msg) => {
            await new Promise((resolve) => setTimeout(resolve, 5));
            handled.add(msg.value.id);
          },
        });
        await subscription.caughtUp();
        for (const m of sent) expect(handled.has(m.value.id)).toBe(true);
      });

      it('when skip passes messages over by their headers, then the handler never gets them and the group still moves past them', async () => {
        const topic = await newTopic();
        const sent = Array.from({ length: 12 }, (_, n) =>
          message('k', n, { owner: n % 3 === 0 ? 'mine' : 'theirs' }),
        );
        await bus.publish(topic, sent);
        const { received, handler } = collector();
        const groupId = uniqueName('g');
        const first = await subscribe({
          groupId,
          topics: [topic],
          fromBeginning: true,
          skip: (headers) => headers.owner !== 'mine',
          handler,
        });
        await first.caughtUp();
        expect(received.map((m) => payloadOf(m).n)).toEqual([0, 3, 6, 9]);

        // The skipped ones count as handled: the group's next member starts after all twelve.
        await first.stop();
        const again = collector();
        await subscribe({ groupId, topics: [topic], handler: again.handler });
        await bus.publish(topic, [message('k', 99, { owner: 'mine' })]);
        await eventually(() => expect(again.received).toHaveLength(1));
        expect(payloadOf(again.received[0] as ConsumedMessage).n).toBe(99);
      });

      it('when the topic is empty or only new messages are wanted, then caughtUp resolves at once', async () => {
        const empty = await newTopic();
        const busy = await newTopic();
        await bus.publish(busy, [message('k', 1)]);
        const never = async () => {
          throw new Error('no message expected');
        };
        const a = await subscribe({
          groupId: uniqueName('g'),
          topics: [empty],
          fromBeginning: true,
          handler: never,
        });
        const b = await subscribe({ groupId: uniqueName('g'), topics: [busy], handler: never });
        await expect(Promise.all([a.caughtUp(), b.caughtUp()])).resolves.toBeDefined();
      });
    });

    describe('failures', () => {
      it('when a handler fails twice and then succeeds, then the message is handled on the third attempt', async () => {
        const topic = await newTopic();
        let attempts = 0;
        const done: number[] = [];
        await subscribe({
          groupId: uniqueName('g'),
          topics: [topic],
          handler: async (msg) => {
            attempts++;
            if (attempts < 3) throw new Error('transient');
            done.push(payloadOf(msg).n);
          },
        });
        await bus.publish(topic, [message('k', 7)]);
        await eventually(() => expect(done).toEqual([7]));
        expect(attempts).toBe(3);
      });

      it('when a handler always fails, then the message is dead-lettered with its origin and later messages still flow', async () => {
        const topic = await newTopic({ partitions: 1 });
        const groupId = uniqueName('poison');
        const handled: number[] = [];
        let poisonAttempts = 0;
        await subscribe({
          groupId,
          topics: [topic],
          maxAttempts: 3,
          handler: async (msg) => {
            const { n } = payloadOf(msg);
            if (n === 1) {
              poisonAttempts++;
              throw new Error('cannot handle 1');
            }
            handled.push(n);
          },
        });
        const dead = collector();
        await subscribe({
          groupId: uniqueName('dlq'),
          topics: [Topics.deadLetter],
          fromBeginning: true,
          handler: dead.handler,
        });
        const poison = message('same-key', 1, { 'x-trace': 'poison' });
        await bus.publish(topic, [
          message('same-key', 0),
          poison,
          message('same-key', 2),
          message('same-key', 3),
        ]);

        await eventually(() => expect(handled).toEqual([0, 2, 3]));
        expect(poisonAttempts).toBe(3);
        await eventually(() => {
          const mine = dead.received.filter(
            (m) => m.headers[DeadLetterHeader.originTopic] === topic,
          );
          expect(mine).toHaveLength(1);
          const [letter] = mine;
          expect(letter?.value).toEqual(poison.value);
          expect(letter?.key).toBe('same-key');
          expect(letter?.headers).toMatchObject({
            'x-trace': 'poison',
            [DeadLetterHeader.originPartition]: '0',
            [DeadLetterHeader.originOffset]: '1',
            [DeadLetterHeader.groupId]: groupId,
            [DeadLetterHeader.attempts]: '3',
          });
          expect(letter?.headers[DeadLetterHeader.error]).toContain('cannot handle 1');
        });
      });
    });

    describe('concurrency', () => {
      it('when concurrency is 4 and handlers take variable time, then at most 4 run at once, keys keep their order and every message is handled', async () => {
        const topic = await newTopic({ partitions: 1 });
        const sent = Array.from({ length: 40 }, (_, n) => message(`key-${n % 5}`, n));
        await bus.publish(topic, sent);
        const handled: ConsumedMessage[] = [];
        const busyKeys = new Set<string>();
        const overlaps: string[] = [];
        let inFlight = 0;
        let maxInFlight = 0;
        await subscribe({
          groupId: uniqueName('g'),
          topics: [topic],
          fromBeginning: true,
          concurrency: 4,
          handler: async (msg) => {
            const key = msg.key ?? '';
            if (busyKeys.has(key)) overlaps.push(`${key}@${msg.offset}`);
            busyKeys.add(key);
            inFlight++;
            maxInFlight = Math.max(maxInFlight, inFlight);
            await sleep(5 + ((payloadOf(msg).n * 7) % 4) * 10);
            inFlight--;
            busyKeys.delete(key);
            handled.push(msg);
          },
        });

        await eventually(() => expect(handled).toHaveLength(40));
        expect(maxInFlight).toBeLessThanOrEqual(4);
        expect(maxInFlight).toBeGreaterThan(1);
        expect(overlaps).toEqual([]);
        for (let k = 0; k < 5; k++) {
          const ns = handled.filter((m) => m.key === `key-${k}`).map((m) => payloadOf(m).n);
          expect(ns).toEqual(sent.flatMap((m, n) => (m.key === `key-${k}` ? [n] : [])));
        }
        expect(new Set(handled.map((m) => m.value.id))).toEqual(
          new Set(sent.map((m) => m.value.id)),
        );
      });

      it('when key ordering is off, then one busy key still fills the window', async () => {
        const topic = await newTopic({ partitions: 1 });
        const sent = Array.from({ length: 12 }, (_, n) => message('one-account', n));
        await bus.publish(topic, sent);
        let inFlight = 0;
        let maxInFlight = 0;
        let handled = 0;
        await subscribe({
          groupId: uniqueName('g'),
          topics: [topic],
          fromBeginning: true,
          concurrency: 4,
          keyOrdering: false,
          handler: async () => {
            inFlight++;
            maxInFlight = Math.max(maxInFlight, inFlight);
            await sleep(20);
            inFlight--;
            handled++;
          },
        });
        await eventually(() => expect(handled).toBe(12));
        expect(maxInFlight).toBeGreaterThan(1);
        expect(maxInFlight).toBeLessThanOrEqual(4);
      });

      it('when a subscription stops while handlers are blocked, then its group gets every unfinished message again and nothing below the lowest unfinished one', async () => {
        const topic = await newTopic({ partitions: 1 });
        const groupId = uniqueName('window');
        // 2 and 5 block until the subscription stops, then fail: unfinished. 6 shares 5's key,
        // so it cannot even start. Everything else finishes at once.
        const keyOf = (n: number) => (n === 6 ? 'key-5' : `key-${n}`);
        const sent = Array.from({ length: 12 }, (_, n) => message(keyOf(n), n));
        let release: () => void = () => {};
        const released = new Promise<void>((resolve) => {
          release = resolve;
        });
        const finished = new Set<number>();
        const started = new Set<number>();
        const first = await bus.subscribe({
          groupId,
          topics: [topic],
          fromBeginning: true,
          concurrency: 4,
          handler: async (msg) => {
            const { n } = payloadOf(msg);
            started.add(n);
            if (n === 2 || n === 5) {
              await released;
              throw new Error('interrupted by the stop');
            }
            finished.add(n);
          },
        });
        await bus.publish(topic, sent);
        await eventually(() => {
          expect([...finished].sort()).toEqual(expect.arrayContaining([0, 1]));
          expect(started.has(2) && started.has(5)).toBe(true);
        });
        expect(started.has(6)).toBe(false);

        const stopping = first.stop();
        release();
        await stopping;
        expect(finished.has(2) || finished.has(5) || finished.has(6)).toBe(false);

        const again = collector();
        await subscribe({ groupId, topics: [topic], fromBeginning: true, handler: again.handler });
        const unfinished = sent.flatMap((_, n) => (finished.has(n) ? [] : [n]));
        await eventually(() =>
          expect(again.received.map((m) => payloadOf(m).n)).toEqual(
            expect.arrayContaining(unfinished),
          ),
        );
        const redelivered = again.received.map((m) => payloadOf(m).n);
        expect(redelivered).toContain(6);
        expect(redelivered).not.toContain(0);
        expect(redelivered).not.toContain(1);
        expect(Math.min(...redelivered)).toBe(2);
      });

      it('when concurrency is 3 and one message keeps failing, then it is dead-lettered on its own and the rest are handled', async () => {
        const topic = await newTopic({ partitions: 1 });
        const sent = Array.from({ length: 9 }, (_, n) => message(`key-${n}`, n));
        await bus.publish(topic, sent);
        const handled = new Set<number>();
        let poisonAttempts = 0;
        const subscription = await subscribe({
          groupId: uniqueName('g'),
          topics: [topic],
          fromBeginning: true,
          concurrency: 3,
          maxAttempts: 2,
          handler: async (msg) => {
            const { n } = payloadOf(msg);
            if (n === 4) {
              poisonAttempts++;
              throw new Error('cannot handle 4');
            }
            handled.add(n);
          },
        });
        // Caught up means the position passed the poison message: it was dead-lettered.
        await subscription.caughtUp();
        expect(poisonAttempts).toBe(2);
        expect([...handled].sort()).toEqual([0, 1, 2, 3, 5, 6, 7, 8]);
      });

      it('when concurrency is not a positive integer, then subscribing fails', async () => {
        const topic = await newTopic();
        for (const concurrency of [0, -1, 1.5]) {
          await expect(
            bus.subscribe({
              groupId: uniqueName('g'),
              topics: [topic],
              concurrency,
              handler: async () => {},
            }),
          ).rejects.toThrow(/concurrency/);
        }
      });
    });

    describe('compacted topics', () => {
      it('when a compacted topic is replayed, then folding it by key gives the latest value of every key', async () => {
        const topic = await newTopic({ compacted: true });
        await bus.publish(topic, [
          message('a', 1),
          message('b', 1),
          message('a', 2),
          message('a', 3),
          message('b', 2),
        ]);
        const latest = new Map<string, number>();
        const subscription = await subscribe({
          groupId: uniqueName('g'),
          topics: [topic],
          fromBeginning: true,
          handler: async (msg) => void latest.set(msg.key ?? '', payloadOf(msg).n),
        });
        await subscription.caughtUp();
        expect(Object.fromEntries(latest)).toEqual({ a: 3, b: 2 });
      });
    });
  });
}

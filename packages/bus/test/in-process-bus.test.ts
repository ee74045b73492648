import { Topics } from '@msg/contracts';
import { describe, expect, it } from 'vitest';
import { createInProcessBus } from '../src/index.js';
import { busContract } from './bus-contract.js';
import { eventContractTests } from './event-contract.js';
import { eventually, message, payloadOf, quietLogger, testSchemaOf } from './helpers.js';

const fastRetry = { initialDelayMs: 5, maxDelayMs: 20 };

busContract('in-process bus', async () => {
  const bus = createInProcessBus({ logger: quietLogger(), handlerRetry: fastRetry });
  return { bus, groupSettled: async () => {}, close: () => bus.close() };
});

eventContractTests('in-process bus', async () => {
  const bus = createInProcessBus({
    logger: quietLogger(),
    handlerRetry: fastRetry,
    schemaOf: testSchemaOf,
  });
  return {
    bus,
    publishUnchecked: (topic, messages) => bus.publishUnchecked(topic, messages),
    close: () => bus.close(),
  };
});

describe('in-process bus', () => {
  it('when a message is published, then the handler runs after publish resolved, never inside it', async () => {
    const bus = createInProcessBus({ logger: quietLogger() });
    await bus.ensureTopics([{ topic: 't' }]);
    const calls: string[] = [];
    await bus.subscribe({
      groupId: 'g',
      topics: ['t'],
      handler: async () => void calls.push('handler'),
    });
    const publishing = bus.publish('t', [message('k', 1)]);
    calls.push('published');
    await publishing;
    calls.push('resolved');
    await eventually(() => expect(calls).toEqual(['published', 'resolved', 'handler']));
    await bus.close();
  });

  it('when a compacted topic is replayed, then only the latest message of each key is delivered', async () => {
    const bus = createInProcessBus({ logger: quietLogger() });
    await bus.ensureTopics([{ topic: 'accounts', compacted: true, partitions: 1 }]);
    await bus.publish('accounts', [
      message('a', 1),
      message('b', 1),
      message('a', 2),
      message('a', 3),
    ]);
    const seen: string[] = [];
    const sub = await bus.subscribe({
      groupId: 'directory',
      topics: ['accounts'],
      fromBeginning: true,
      handler: async (msg) => void seen.push(`${msg.key}${payloadOf(msg).n}`),
    });
    await sub.caughtUp();
    expect(seen).toEqual(['b1', 'a3']);
    await bus.close();
  });

  it('when publishing to a topic that was never created, then publish fails', async () => {
    const bus = createInProcessBus({ logger: quietLogger() });
    await expect(bus.publish('nope', [message('k', 1)])).rejects.toThrow(/ensureTopics/);
    await bus.close();
  });

  it('when a handler mutates the message, then other groups still get the original', async () => {
    const bus = createInProcessBus({ logger: quietLogger() });
    await bus.ensureTopics([{ topic: 't' }]);
    const seen: number[] = [];
    await bus.subscribe({
      groupId: 'mutator',
      topics: ['t'],
      handler: async (msg) => {
        msg.value.payload = { n: 99 };
      },
    });
    await bus.subscribe({
      groupId: 'reader',
      topics: ['t'],
      handler: async (msg) => void seen.push(payloadOf(msg).n),
    });
    await bus.publish('t', [message('k', 1)]);
    await eventually(() => expect(seen).toEqual([1]));
    await bus.close();
  });

  it('when one subscriber of a group stops while a message keeps failing, then another member takes it over', async () => {
    const bus = createInProcessBus({
      logger: quietLogger(),
      handlerRetry: { initialDelayMs: 50, maxDelayMs: 50 },
    });
    await bus.ensureTopics([{ topic: 't', partitions: 1 }]);
    const failing = await bus.subscribe({
      groupId: 'g',
      topics: ['t'],
      maxAttempts: 1_000,
      handler: async () => {
        throw new Error('broken replica');
      },
    });
    const handled: number[] = [];
    await bus.subscribe({
      groupId: 'g',
      topics: ['t'],
      handler: async (m) => void handled.push(payloadOf(m).n),
    });
    await bus.publish('t', [message('k', 1)]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(handled).toEqual([]);
    await failing.stop();
    await eventually(() => expect(handled).toEqual([1]));
    await bus.close();
  });

  it('when the bus is closed, then it is no longer ready and refuses to publish', async () => {
    const bus = createInProcessBus({ logger: quietLogger() });
    await bus.ensureTopics([{ topic: Topics.smsOutbound }]);
    expect(bus.isReady()).toBe(true);
    await bus.close();
    expect(bus.isReady()).toBe(false);
    await expect(bus.publish(Topics.smsOutbound, [message('k', 1)])).rejects.toThrow(/closed/);
  });
});

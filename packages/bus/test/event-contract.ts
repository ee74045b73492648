import {
  type ContractTopic,
  type EventEnvelope,
  eventContracts,
  exampleEvents,
  Topics,
} from '@msg/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Bus,
  type BusMessage,
  type ConsumedMessage,
  DeadLetterHeader,
  InvalidEventError,
  type Subscription,
} from '../src/index.js';
import { eventually, uniqueName } from './helpers.js';

export interface EventContractHarness {
  /** A bus whose schema lookup is testSchemaOf. */
  bus: Bus;
  /** Writes to the topic past the publish check, as a producer that skips it can. */
  publishUnchecked(topic: string, messages: BusMessage[]): Promise<void>;
  close(): Promise<void>;
}

const topics = Object.keys(eventContracts) as ContractTopic[];

/** A fresh copy of the topic's example with a new id, so each test's events are its own. */
function freshEvent(topic: ContractTopic, id: string): EventEnvelope {
  return { ...structuredClone(exampleEvents[topic]), id } as EventEnvelope;
}

/** The example with its first payload member removed: it breaks the topic's schema. */
function malformedEvent(topic: ContractTopic, id: string): EventEnvelope {
  const event = freshEvent(topic, id);
  const payload = { ...(event.payload as Record<string, unknown>) };
  delete payload[Object.keys(payload)[0] as string];
  return { ...event, payload };
}

/**
 * What every Bus does with the event contracts of packages/contracts, run against the in-process
 * bus (unit) and real Kafka (integration).
 */
export function eventContractTests(name: string, makeHarness: () => Promise<EventContractHarness>) {
  describe(`${name} (event contracts)`, () => {
    let harness: EventContractHarness;
    let deadLetters: ConsumedMessage[];
    const subscriptions: Subscription[] = [];

    beforeAll(async () => {
      harness = await makeHarness();
      deadLetters = [];
      await harness.bus.ensureTopics([{ topic: Topics.deadLetter }]);
      subscriptions.push(
        await harness.bus.subscribe({
          groupId: uniqueName('dead-letters'),
          topics: [Topics.deadLetter],
          fromBeginning: true,
          handler: async (msg) => void deadLetters.push(msg),
        }),
      );
    });
    afterAll(async () => {
      await Promise.all(subscriptions.map((s) => s.stop()));
      await harness?.close();
    });

    it.each(topics)(
      'when a malformed %s event arrives, then it goes to the dead-letter topic with the reason and the consumer handles the next one',
      async (contractTopic) => {
        const topic = uniqueName(contractTopic);
        await harness.bus.ensureTopics([{ topic }]);
        const handled: ConsumedMessage[] = [];
        const groupId = uniqueName('consumer');
        subscriptions.push(
          await harness.bus.subscribe({
            groupId,
            topics: [topic],
            fromBeginning: true,
            handler: async (msg) => void handled.push(msg),
          }),
        );
        const bad = malformedEvent(contractTopic, uniqueName('bad'));
        const good = freshEvent(contractTopic, uniqueName('good'));

        await harness.publishUnchecked(topic, [
          { key: 'k', value: bad, headers: { 'x-trace': 'malformed' } },
          { key: 'k', value: good },
        ]);

        await eventually(() => expect(handled.map((m) => m.value.id)).toEqual([good.id]));
        await eventually(() => {
          const mine = deadLetters.filter((m) => m.headers[DeadLetterHeader.originTopic] === topic);
          expect(mine).toHaveLength(1);
          expect(mine[0]?.value).toEqual(bad);
          expect(mine[0]?.headers).toMatchObject({
            'x-trace': 'malformed',
            [DeadLetterHeader.groupId]: groupId,
            [DeadLetterHeader.attempts]: '0',
          });
          expect(mine[0]?.headers[DeadLetterHeader.error]).toContain(
            `does not match the schema of ${topic}`,
          );
        });
      },
    );

    it('when an event breaks its schema, then publish refuses it with the reason and sends nothing of the batch', async () => {
      const topic = uniqueName(Topics.smsStatus);
      await harness.bus.ensureTopics([{ topic }]);
      const handled: ConsumedMessage[] = [];
      subscriptions.push(
        await harness.bus.subscribe({
          groupId: uniqueName('consumer'),
          topics: [topic],
          fromBeginning: true,
          handler: async (msg) => void handled.push(msg),
        }),
      );
      const good = freshEvent(Topics.smsStatus, uniqueName('good'));
      const bad = malformedEvent(Topics.smsStatus, uniqueName('bad'));

      const refused = harness.bus.publish(topic, [
        { key: 'k', value: good },
        { key: 'k', value: bad },
      ]);

      await expect(refused).rejects.toThrow(InvalidEventError);
      await expect(refused).rejects.toThrow(/payload\.messageId/);
      const after = freshEvent(Topics.smsStatus, uniqueName('after'));
      await harness.bus.publish(topic, [{ key: 'k', value: after }]);
      await eventually(() => expect(handled.map((m) => m.value.id)).toEqual([after.id]));
    });

    it('when an event was written before schemaVersion existed, then the handler gets it as version 1', async () => {
      const topic = uniqueName(Topics.smsStatus);
      await harness.bus.ensureTopics([{ topic }]);
      const handled: ConsumedMessage[] = [];
      subscriptions.push(
        await harness.bus.subscribe({
          groupId: uniqueName('consumer'),
          topics: [topic],
          fromBeginning: true,
          handler: async (msg) => void handled.push(msg),
        }),
      );
      const { schemaVersion: _absent, ...older } = freshEvent(Topics.smsStatus, uniqueName('old'));

      await harness.bus.publish(topic, [{ key: 'k', value: older }]);

      await eventually(() => expect(handled[0]?.value).toEqual({ ...older, schemaVersion: 1 }));
    });
  });
}

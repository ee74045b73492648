import { Topics } from '@msg/contracts';
import type { Logger } from '@msg/logger';
import { type CaughtUpTracker, createCaughtUpTracker } from './caught-up.js';
import { deadLetterHeaders } from './dead-letter.js';
import { checkedEvent, checkOutgoing, type EventSchemaLookup } from './event-validation.js';
import { errorMessage, type HandlerOutcome, runHandlerWithRetries } from './handler-retry.js';
import { type PartitionLog, type StoredRecord, TopicLog } from './in-process-log.js';
import { checkedConcurrency, runOrderedWindow } from './ordered-window.js';
import {
  type Bus,
  type BusMessage,
  type ConsumedMessage,
  DEFAULT_CONCURRENCY,
  DEFAULT_HANDLER_RETRY,
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_PARTITIONS,
  type HandlerRetryOptions,
  type SubscribeOptions,
  type TopicSpec,
} from './types.js';

export interface InProcessBusOptions {
  logger: Logger;
  handlerRetry?: HandlerRetryOptions;
  /** Which schema each topic's events must follow; default the contracts' (packages/contracts). */
  schemaOf?: EventSchemaLookup;
}

export interface InProcessBus extends Bus {
  /**
   * Appends without checking the topic's schema, as another producer on a shared Kafka topic can:
   * how tests show what consumers do with an event that breaks its contract. Services use
   * `publish`.
   */
  publishUnchecked(topic: string, messages: BusMessage[]): Promise<void>;
}

interface Member {
  topics: ReadonlySet<string>;
  handler: SubscribeOptions['handler'];
  maxAttempts: number;
  concurrency: number;
  keyOrdering: boolean;
  skip: SubscribeOptions['skip'];
  abort: AbortController;
  inFlight: Set<Promise<HandlerOutcome>>;
  tracker: CaughtUpTracker;
}

/** Records taken from a partition per turn, like one Kafka fetch. */
const BATCH_SIZE = 500;

interface Group {
  id: string;
  /** The next offset to deliver, per topic and partition: the group's committed position. */
  positions: Map<string, number[]>;
  members: Member[];
  /** Partitions whose delivery loop is running (one per partition, so one batch at a time). */
  pumping: Set<string>;
}

/**
 * The bus of the embedded single-process mode, with Kafka's semantics: a retained log per
 * partition, consumer groups sharing partitions, per-key order, at-least-once delivery with
 * retries then dead-letter. Delivery is always asynchronous, never in the publisher's stack.
 */
export function createInProcessBus({
  logger,
  handlerRetry = DEFAULT_HANDLER_RETRY,
  schemaOf,
}: InProcessBusOptions): InProcessBus {
  const topics = new Map<string, TopicLog>();
  const groups = new Map<string, Group>();
  let closed = false;

  function topicLog(topic: string): TopicLog {
    const log = topics.get(topic);
    if (!log) throw new Error(`bus: topic ${topic} does not exist; call ensureTopics first`);
    return log;
  }

  function ensureTopic({ topic, partitions = DEFAULT_PARTITIONS, compacted = false }: TopicSpec) {
    if (!topics.has(topic)) topics.set(topic, new TopicLog(partitions, compacted));
  }

  function append(topic: string, messages: BusMessage[]): void {
    const log = topicLog(topic);
    const touched = new Set<number>();
    for (const { key, value, headers = {} } of messages) {
      const partition = log.partitionFor(key);
      log.partitions[partition]?.append(key, value, headers);
      touched.add(partition);
    }
    for (const group of groups.values()) {
      if (!group.positions.has(topic)) continue;
      for (const partition of touched) schedule(group, topic, partition);
    }
  }

  function schedule(group: Group, topic: string, partition: number): void {
    setImmediate(() => {
      pump(group, topic, partition).catch((error: unknown) => {
        logger.error('bus delivery loop failed', { topic, partition, groupId: group.id, error });
      });
    });
  }

  function assignee(group: Group, topic: string, partition: number): Member | undefined {
    const eligible = group.members.filter((m) => m.topics.has(topic) && !m.abort.signal.aborted);
    return eligible[partition % eligible.length];
  }

  function setPosition(group: Group, topic: string, partition: number, next: number): void {
    const positions = group.positions.get(topic);
    if (!positions) return;
    positions[partition] = next;
    for (const member of group.members) member.tracker.advance(topic, partition, BigInt(next));
    trimTopic(topic, partition);
  }

  function trimTopic(topic: string, partition: number): void {
    let consumedBelow = Number.POSITIVE_INFINITY;
    for (const group of groups.values()) {
      const position = group.positions.get(topic)?.[partition];
      if (position !== undefined) consumedBelow = Math.min(consumedBelow, position);
    }
    topics.get(topic)?.partitions[partition]?.trim(consumedBelow);
  }

  /**
   * Delivers one partition's records to the group in order, in batches like Kafka's fetches:
   * up to the member's `concurrency` at once (one at a time per key), the position moving only
   * over a finished prefix of the batch.
   */
  async function pump(group: Group, topic: string, partition: number): Promise<void> {
    const loopKey = `${topic}\u0000${partition}`;
    if (group.pumping.has(loopKey)) return;
    group.pumping.add(loopKey);
    try {
      for (;;) {
        const member = assignee(group, topic, partition);
        const log = topics.get(topic)?.partitions[partition];
        const position = group.positions.get(topic)?.[partition];
        if (closed || !member || !log || position === undefined) return;
        const records = readBatch(log, position);
        if (records.length === 0) {
          if (position < log.nextOffset) setPosition(group, topic, partition, log.nextOffset);
          return;
        }
        // A member that stops mid-batch leaves the unfinished records where they are; the next
        // turn of the loop hands them to another member (or to nobody, until one subscribes).
        await runOrderedWindow({
          items: records,
          concurrency: member.concurrency,
          keyOf: (record) => (member.keyOrdering ? record.key : null),
          canStart: () => !closed && !member.abort.signal.aborted,
          onFinishedPrefix: (index) => {
            const record = records[index];
            if (record) setPosition(group, topic, partition, record.offset + 1);
          },
          handle: async (record) => {
            const outcome = await deliver(group, member, topic, partition, record);
            if (outcome.kind === 'stopped') return false;
            if (outcome.kind === 'failed') {
              deadLetter(group, topic, partition, record, outcome.error, outcome.attempts);
            }
            return true;
          },
        });
      }
    } finally {
      group.pumping.delete(loopKey);
    }
  }

  function readBatch(log: PartitionLog, position: number): StoredRecord[] {
    const batch: StoredRecord[] = [];
    for (let next = log.readFrom(position); next && batch.length < BATCH_SIZE; ) {
      batch.push(next);
      next = log.readFrom(next.offset + 1);
    }
    return batch;
  }

  function deliver(
    group: Group,
    member: Member,
    topic: string,
    partition: number,
    record: StoredRecord,
  ): Promise<HandlerOutcome> {
    if (member.skip?.(record.headers)) return Promise.resolve({ kind: 'handled' });
    let value: ConsumedMessage['value'];
    try {
      value = checkedEvent(topic, JSON.parse(record.json), schemaOf);
    } catch (error) {
      // Breaks its topic's schema: no handler could ever take it, so straight to dead letter.
      return Promise.resolve({ kind: 'failed', error, attempts: 0 });
    }
    const message: ConsumedMessage = {
      topic,
      partition,
      offset: String(record.offset),
      key: record.key,
      value,
      headers: { ...record.headers },
    };
    const run = runHandlerWithRetries({
      handler: member.handler,
      message,
      groupId: group.id,
      maxAttempts: member.maxAttempts,
      retry: handlerRetry,
      signal: member.abort.signal,
      logger,
    });
    member.inFlight.add(run);
    return run.finally(() => member.inFlight.delete(run));
  }

  function deadLetter(
    group: Group,
    topic: string,
    partition: number,
    record: StoredRecord,
    error: unknown,
    attempts: number,
  ): void {
    // A failure while consuming the dead-letter topic itself is only logged: sending the
    // message back there would loop forever.
    const dropped = topic === Topics.deadLetter;
    logger.error(dropped ? 'bus dead letter dropped' : 'bus message dead-lettered', {
      topic,
      partition,
      offset: record.offset,
      groupId: group.id,
      attempts,
      error: errorMessage(error),
    });
    if (dropped) return;
    const headers = deadLetterHeaders({
      topic,
      partition,
      offset: String(record.offset),
      groupId: group.id,
      headers: record.headers,
      error,
      attempts,
    });
    append(Topics.deadLetter, [{ key: record.key, value: JSON.parse(record.json), headers }]);
  }

  async function stopMember(group: Group, member: Member): Promise<void> {
    if (member.abort.signal.aborted) return;
    member.abort.abort();
    member.tracker.abandon(new Error('bus: subscription stopped before it caught up'));
    await Promise.allSettled([...member.inFlight]);
    group.members = group.members.filter((m) => m !== member);
    // The partitions it had now go to the remaining members.
    for (const topic of member.topics) {
      const partitions = group.positions.get(topic)?.length ?? 0;
      for (let p = 0; p < partitions; p++) schedule(group, topic, p);
    }
  }

  return {
    async ensureTopics(specs) {
      for (const spec of specs) ensureTopic(spec);
    },

    async publish(topic, messages) {
      if (closed) throw new Error('bus: closed');
      checkOutgoing(topic, messages, schemaOf);
      append(topic, messages);
    },

    async publishUnchecked(topic, messages) {
      if (closed) throw new Error('bus: closed');
      append(topic, messages);
    },

    async subscribe(opts) {
      if (closed) throw new Error('bus: closed');
      const concurrency = checkedConcurrency(opts.concurrency, DEFAULT_CONCURRENCY);
      for (const topic of opts.topics) topicLog(topic);
      ensureTopic({ topic: Topics.deadLetter });

      let group = groups.get(opts.groupId);
      if (!group) {
        group = { id: opts.groupId, positions: new Map(), members: [], pumping: new Set() };
        groups.set(opts.groupId, group);
      }
      const targets = [];
      for (const topic of opts.topics) {
        const log = topicLog(topic);
        let positions = group.positions.get(topic);
        if (!positions) {
          // A group without a position starts at the oldest record or at the end, like
          // Kafka's auto.offset.reset; once it has one, it resumes there.
          positions = log.partitions.map((p) =>
            opts.fromBeginning ? p.startOffset() : p.nextOffset,
          );
          group.positions.set(topic, positions);
        }
        for (const [partition, p] of log.partitions.entries()) {
          const start = BigInt(positions[partition] ?? 0);
          targets.push({ topic, partition, start, end: BigInt(p.nextOffset) });
        }
      }

      const member: Member = {
        topics: new Set(opts.topics),
        handler: opts.handler,
        maxAttempts: opts.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
        concurrency,
        keyOrdering: opts.keyOrdering ?? true,
        skip: opts.skip,
        abort: new AbortController(),
        inFlight: new Set(),
        tracker: createCaughtUpTracker(targets),
      };
      const joined = group;
      joined.members.push(member);
      for (const topic of opts.topics) {
        const partitions = topicLog(topic).partitions.length;
        for (let p = 0; p < partitions; p++) schedule(joined, topic, p);
      }

      return {
        caughtUp: () => member.tracker.promise(),
        stop: () => stopMember(joined, member),
      };
    },

    isReady: () => !closed,

    async close() {
      closed = true;
      const stops = [];
      for (const group of groups.values()) {
        for (const member of group.members) stops.push(stopMember(group, member));
      }
      await Promise.all(stops);
    },
  };
}

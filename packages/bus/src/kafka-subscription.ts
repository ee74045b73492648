import { setTimeout as sleep } from 'node:timers/promises';
import { backoffDelay } from '@msg/backoff';
import { Topics } from '@msg/contracts';
import type { Logger } from '@msg/logger';
import type { Admin, Consumer, EachBatchPayload, Kafka, KafkaMessage, Message } from 'kafkajs';
import { createCaughtUpTracker, type PartitionTarget } from './caught-up.js';
import { type DeadLetterOrigin, deadLetterHeaders } from './dead-letter.js';
import { checkedEvent, type EventSchemaLookup } from './event-validation.js';
import { errorMessage, runHandlerWithRetries } from './handler-retry.js';
import { decodeEnvelope, decodeHeaders } from './kafka-codec.js';
import type { KafkaMetrics } from './kafka-metrics.js';
import { checkedConcurrency, runOrderedWindow } from './ordered-window.js';
import {
  type ConsumedMessage,
  DEFAULT_CONCURRENCY,
  DEFAULT_MAX_ATTEMPTS,
  type HandlerRetryOptions,
  type SubscribeOptions,
  type Subscription,
} from './types.js';

export interface KafkaSubscriptionDeps {
  kafka: Kafka;
  admin: () => Promise<Admin>;
  /** Sends raw records (a poison message may not even be JSON) to Topics.deadLetter. */
  sendDeadLetter: (message: Message) => Promise<void>;
  logger: Logger;
  handlerRetry: HandlerRetryOptions;
  partitionsConsumedConcurrently: number;
  sessionTimeoutMs: number;
  /** Both the consumer's heartbeat interval and the pace of heartbeats while a batch runs. */
  heartbeatIntervalMs: number;
  metrics: KafkaMetrics;
  onHealth: (healthy: boolean) => void;
  /** Events that break their topic's schema are dead-lettered without reaching the handler. */
  schemaOf: EventSchemaLookup | undefined;
}

export interface KafkaSubscription extends Subscription {
  /** True while the consumer is down after a crash and waiting to be restarted. */
  isCrashed(): boolean;
}

const CONSUMER_RETRY = { initialRetryTime: 300, maxRetryTime: 5_000, retries: 10 };
const RESTART_DELAY_MS = 2_000;
const COMMITTED_POLL_MS = 500;
/**
 * Resolved offsets are committed at most this often (and whenever partitions are given back or
 * the consumer stops). kafkajs' own auto-commit sends one OffsetCommit per fetched batch and
 * partition: on a busy topic fetched in small batches that was most of the consumers' requests to
 * the broker. A crash re-delivers at most this much more, which consumers dedupe (by event id, or
 * by a state that only moves forward).
 */
const COMMIT_EVERY_MS = 1_000;

export async function startKafkaSubscription(
  deps: KafkaSubscriptionDeps,
  opts: SubscribeOptions,
): Promise<KafkaSubscription> {
  const { logger, kafka } = deps;
  const { groupId, topics } = opts;
  const fromBeginning = opts.fromBeginning ?? false;
  const maxAttempts = opts.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const concurrency = checkedConcurrency(opts.concurrency, DEFAULT_CONCURRENCY);
  const abort = new AbortController();
  const log = logger.child({ groupId });

  const admin = await deps.admin();
  const existing = new Set(await admin.listTopics());
  const missing = topics.filter((t) => !existing.has(t));
  if (missing.length > 0) {
    throw new Error(`bus: topics ${missing.join(', ')} do not exist; call ensureTopics first`);
  }
  // A fresh broker answers "not the coordinator" until its offsets topic exists; kafkajs'
  // admin does not retry that itself.
  const plan = await retrying(() => planStart(admin, groupId, topics, fromBeginning), abort.signal);
  const tracker = createCaughtUpTracker(plan.targets);

  let consumer: Consumer | undefined;
  let crashed = false;
  let poller: Promise<void> | undefined;
  /** The running consumer group's commit, as the last batch handed it over (kafkajs keeps no other handle). */
  let offsets:
    | Pick<EachBatchPayload, 'commitOffsetsIfNecessary' | 'uncommittedOffsets'>
    | undefined;

  let committing: Promise<void> | undefined;

  /** Commits what was resolved: all of it, or only once COMMIT_EVERY_MS passed since the last commit. */
  async function commitResolved(all: boolean): Promise<void> {
    // One commit at a time: every message finishing while one is in flight would start another.
    while (committing) {
      if (!all) return;
      await committing;
    }
    const group = offsets;
    if (!group) return;
    committing = (
      all
        ? group.commitOffsetsIfNecessary(group.uncommittedOffsets())
        : group.commitOffsetsIfNecessary()
    )
      .catch((error: unknown) => {
        // Still uncommitted: the next commit carries it, or the next owner handles it again.
        log.warn('bus commit failed', { error: errorMessage(error) });
      })
      .finally(() => {
        committing = undefined;
      });
    await committing;
  }

  /**
   * One fetched batch of one partition. Up to `concurrency` handlers run at once (one at a time
   * per key); the offset resolved — and so committed — only ever covers the prefix of the batch
   * in which every message finished, so a crash or a stop re-delivers anything unfinished. The
   * batch ends when nothing is running any more, so batches of a partition never overlap.
   */
  async function eachBatch({
    batch,
    resolveOffset,
    heartbeat,
    commitOffsetsIfNecessary,
    uncommittedOffsets,
    isRunning,
    isStale,
  }: EachBatchPayload) {
    const { topic, partition, messages } = batch;
    offsets = { commitOffsetsIfNecessary, uncommittedOffsets };
    // kafkajs heartbeats only between batches; handlers may run far longer than a session.
    let heartbeatError: unknown;
    const beating = setInterval(() => {
      heartbeat().catch((error: unknown) => {
        heartbeatError ??= error;
      });
    }, deps.heartbeatIntervalMs);
    try {
      await runOrderedWindow({
        items: messages,
        concurrency,
        keyOf: (message) =>
          opts.keyOrdering === false ? null : (message.key?.toString('utf8') ?? null),
        // Stale: a seek (the first join's "start at the end") replaced this batch's position.
        canStart: () =>
          !abort.signal.aborted && isRunning() && !isStale() && heartbeatError === undefined,
        onFinishedPrefix: (index) => {
          const message = messages[index];
          if (!message) return;
          resolveOffset(message.offset);
          tracker.advance(topic, partition, BigInt(message.offset) + 1n);
          void commitResolved(false);
        },
        handle: (message) => handleMessage(topic, partition, message),
      });
    } finally {
      clearInterval(beating);
    }
    // Partitions given back (a rebalance) or a stop: everything that finished is committed now,
    // so the next owner starts right after it.
    await commitResolved(heartbeatError !== undefined || !isRunning() || abort.signal.aborted);
    // A rebalance started: give the partitions back (kafkajs rejoins on this error).
    if (heartbeatError !== undefined && !abort.signal.aborted) throw heartbeatError;
  }

  /** True once the message is done with (handled or dead-lettered); false when stopping. */
  async function handleMessage(
    topic: string,
    partition: number,
    message: KafkaMessage,
  ): Promise<boolean> {
    const headers = decodeHeaders(message.headers);
    if (opts.skip?.(headers)) return true;
    const origin = { topic, partition, offset: message.offset, groupId, headers };
    let consumed: ConsumedMessage;
    try {
      consumed = {
        topic,
        partition,
        offset: message.offset,
        key: message.key?.toString('utf8') ?? null,
        value: checkedEvent(topic, decodeEnvelope(message.value), deps.schemaOf),
        headers,
      };
    } catch (error) {
      await deadLetter(message, { ...origin, error, attempts: 0 });
      return true;
    }
    const outcome = await runHandlerWithRetries({
      handler: opts.handler,
      message: consumed,
      groupId,
      maxAttempts,
      retry: deps.handlerRetry,
      signal: abort.signal,
      logger: log,
    });
    if (outcome.kind === 'stopped') return false;
    if (outcome.kind === 'failed') {
      await deadLetter(message, { ...origin, error: outcome.error, attempts: outcome.attempts });
    }
    return true;
  }

  async function deadLetter(message: KafkaMessage, origin: DeadLetterOrigin) {
    // A failure while consuming the dead-letter topic itself is only logged: sending the
    // message back there would loop forever.
    const dropped = origin.topic === Topics.deadLetter;
    log.error(dropped ? 'bus dead letter dropped' : 'bus message dead-lettered', {
      topic: origin.topic,
      partition: origin.partition,
      offset: origin.offset,
      attempts: origin.attempts,
      error: errorMessage(origin.error),
    });
    if (dropped) return;
    // If this throws, the batch fails before resolving this message and kafkajs redelivers it:
    // it is never skipped without a trace.
    await deps.sendDeadLetter({
      key: message.key,
      value: message.value,
      headers: deadLetterHeaders(origin),
    });
  }

  async function run(): Promise<void> {
    const c = kafka.consumer({
      groupId,
      allowAutoTopicCreation: false,
      sessionTimeout: deps.sessionTimeoutMs,
      // kafkajs sends at most one heartbeat per interval however often eachBatch asks.
      heartbeatInterval: deps.heartbeatIntervalMs,
      // Bounds how long a stop waits for an idle fetch; new data returns at once anyway.
      maxWaitTimeInMs: 1_000,
      retry: {
        ...CONSUMER_RETRY,
        // kafkajs restarts itself after retriable crashes (broker gone, say) unless we stop.
        restartOnFailure: async () => !abort.signal.aborted,
      },
    });
    consumer = c;
    deps.metrics.setJoined(groupId, false);
    c.on(c.events.CRASH, ({ payload }) => {
      crashed = true;
      // The crashed run's group and its resolved offsets are gone: the restart re-delivers them.
      offsets = undefined;
      deps.metrics.setJoined(groupId, false);
      deps.onHealth(false);
      log.warn('bus consumer crashed', {
        error: errorMessage(payload.error),
        restart: payload.restart,
      });
      // kafkajs gives up on errors it deems fatal; a long-running service must not.
      if (!payload.restart && !abort.signal.aborted) void restartLater(c);
    });
    c.on(c.events.GROUP_JOIN, ({ payload }) => {
      crashed = false;
      deps.metrics.setJoined(groupId, true);
      deps.onHealth(true);
      // kafkajs would resolve "latest" at its first fetch, later than subscribe() resolved, and
      // so skip messages published in between. Starting at the end seen at subscribe time makes
      // "only new messages" mean "published after subscribe()" — and commits that position.
      // Only at the first join: later, committed offsets say where the group is.
      for (const [topic, partitions] of Object.entries(payload.memberAssignment)) {
        for (const partition of partitions) {
          const seek = plan.startAtEnd.get(`${topic}:${partition}`);
          if (seek) c.seek(seek);
        }
      }
      plan.startAtEnd.clear();
    });
    c.on(c.events.FETCH, () => {
      crashed = false;
      // Fetches go on, at least once per maxWaitTimeInMs, while a partition is idle: what its
      // last batch resolved is committed within about a second, not only with the next batch.
      void commitResolved(false);
    });
    // Best effort before the partitions move: the batch in flight commits its own when it ends.
    c.on(c.events.REBALANCING, () => void commitResolved(true));
    c.on(c.events.COMMIT_OFFSETS, () => deps.metrics.countCommit(groupId));
    c.on(c.events.END_BATCH_PROCESS, ({ payload }) => {
      deps.metrics.setLag(groupId, payload.topic, payload.partition, Number(payload.offsetLag));
    });
    c.on(c.events.STOP, () => deps.metrics.setJoined(groupId, false));
    await c.connect();
    await c.subscribe({ topics, fromBeginning });
    await c.run({
      partitionsConsumedConcurrently: deps.partitionsConsumedConcurrently,
      // Offsets are resolved by eachBatch as messages finish, never for the batch as a whole, and
      // committed by commitResolved: kafkajs' auto-commit would send one per batch and partition.
      eachBatchAutoResolve: false,
      autoCommit: false,
      autoCommitInterval: COMMIT_EVERY_MS,
      eachBatch,
    });
  }

  async function restartLater(old: Consumer): Promise<void> {
    await old.disconnect().catch(() => {});
    while (!abort.signal.aborted) {
      try {
        await sleep(RESTART_DELAY_MS, undefined, { signal: abort.signal });
        await run();
        log.warn('bus consumer restarted');
        return;
      } catch (error) {
        if (abort.signal.aborted) return;
        log.warn('bus consumer restart failed', { error: errorMessage(error) });
        await consumer?.disconnect().catch(() => {});
      }
    }
  }

  /** Folds in the group's committed offsets: another member may own some partitions. */
  async function pollCommitted(): Promise<void> {
    while (!tracker.isCaughtUp() && !abort.signal.aborted) {
      try {
        const pending = tracker.pending();
        const committed = await admin.fetchOffsets({
          groupId,
          topics: [...new Set(pending.map((p) => p.topic))],
        });
        for (const { topic, partitions } of committed) {
          for (const { partition, offset } of partitions) {
            if (Number(offset) >= 0) tracker.advance(topic, partition, BigInt(offset));
          }
        }
        await sleep(COMMITTED_POLL_MS, undefined, { signal: abort.signal });
      } catch {
        if (abort.signal.aborted) return;
        await sleep(COMMITTED_POLL_MS);
      }
    }
  }

  try {
    await run();
  } catch (error) {
    abort.abort();
    await consumer?.disconnect().catch(() => {});
    throw error;
  }

  return {
    caughtUp() {
      if (!tracker.isCaughtUp()) poller ??= pollCommitted();
      return tracker.promise();
    },
    isCrashed: () => crashed,
    async stop() {
      if (abort.signal.aborted) return;
      abort.abort();
      tracker.abandon(new Error('bus: subscription stopped before it caught up'));
      // What idle partitions resolved since their last commit; the batch in flight, which
      // disconnect() waits for (handlers already running finish, none starts), commits its own.
      await commitResolved(true);
      await consumer?.disconnect();
      await poller;
    },
  };
}

interface StartPlan {
  targets: PartitionTarget[];
  /** Partitions without a committed offset where only new messages are wanted: seek to `end`. */
  startAtEnd: Map<string, { topic: string; partition: number; offset: string }>;
}

/** The end offset of every partition now, and where this group will start reading it. */
async function planStart(
  admin: Admin,
  groupId: string,
  topics: string[],
  fromBeginning: boolean,
): Promise<StartPlan> {
  const committed = new Map<string, bigint>();
  for (const { topic, partitions } of await admin.fetchOffsets({ groupId, topics })) {
    for (const { partition, offset } of partitions) {
      committed.set(`${topic}:${partition}`, BigInt(offset));
    }
  }
  const plan: StartPlan = { targets: [], startAtEnd: new Map() };
  for (const topic of topics) {
    for (const { partition, high, low } of await topicOffsets(admin, topic)) {
      const end = BigInt(high);
      const earliest = BigInt(low);
      const position = committed.get(`${topic}:${partition}`) ?? -1n;
      // Mirrors auto.offset.reset: without a valid committed offset, start at the oldest
      // retained message or at the end.
      const valid = position >= earliest;
      const start = valid ? position : fromBeginning ? earliest : end;
      if (!valid && !fromBeginning) {
        plan.startAtEnd.set(`${topic}:${partition}`, { topic, partition, offset: high });
      }
      plan.targets.push({ topic, partition, start, end });
    }
  }
  return plan;
}

/**
 * A topic's offsets. Moments after another service created the topic, kafkajs' metadata may not
 * know its partitions yet, and fetchTopicOffsets then fails with a TypeError (`high.pop()` of
 * nothing) instead of an error of its own, which crashed a suite starting on a fresh broker: that
 * case is made retriable.
 */
export async function topicOffsets(
  admin: Pick<Admin, 'fetchTopicOffsets'>,
  topic: string,
): ReturnType<Admin['fetchTopicOffsets']> {
  try {
    return await admin.fetchTopicOffsets(topic);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    throw Object.assign(new Error(`bus: offsets of ${topic} not known yet (${error.message})`), {
      retriable: true,
    });
  }
}

async function retrying<T>(work: () => Promise<T>, signal: AbortSignal, attempts = 10): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts || !isRetriable(error)) throw error;
      // 400 ms after the first failure, doubling to 3 s.
      const waitMs = backoffDelay(attempt + 1, { baseMs: 200, maxMs: 3_000, jitter: 'none' });
      await sleep(waitMs, undefined, { signal });
    }
  }
}

/** kafkajs marks errors a later attempt may not meet (no leader yet, broker gone) as retriable. */
export function isRetriable(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && 'retriable' in error && error.retriable === true
  );
}

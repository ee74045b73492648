import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@msg/contracts';
import type { ReadinessCheck } from '@msg/http';
import type { Logger } from '@msg/logger';

/*
 * The slice of @msg/bus's `Bus` that the directories use, typed structurally so this package does
 * not depend on the bus implementation (and tests can pass a tiny fake). A real `Bus` satisfies it.
 */
export interface AccountMessage {
  key: string | null;
  /** Null only for a compaction tombstone, which a bus may or may not pass through. */
  value: EventEnvelope | null;
}

export interface AccountSubscription {
  caughtUp(): Promise<void>;
  stop(): Promise<void>;
}

export interface AccountEventSource {
  ensureTopics(topics: { topic: string; compacted?: boolean }[]): Promise<void>;
  subscribe(opts: {
    groupId: string;
    topics: string[];
    fromBeginning?: boolean;
    handler(msg: AccountMessage): Promise<void>;
  }): Promise<AccountSubscription>;
}

/** An in-memory view of a compacted topic that every replica reads whole. */
export interface TopicFollower {
  /**
   * Makes sure the topic exists (a service may start before its producer ever has) and
   * subscribes; resolves once subscribed, not once caught up (see `caughtUp`).
   */
  start(): Promise<void>;
  /** Resolves when everything present at subscribe time has been read. */
  caughtUp(): Promise<void>;
  /** For /readyz: false until caught up, so no request is decided on a view not yet read. */
  isReady(): boolean;
  /** The same, as a /readyz check. */
  readonly readiness: ReadinessCheck;
  close(): Promise<void>;
}

export interface TopicFollowerOptions {
  bus: AccountEventSource;
  logger: Logger;
  topic: string;
  /**
   * Prefix of the consumer group. A random suffix is always appended: every replica must read
   * every partition, which a shared group would split between them.
   */
  groupId: string;
  /** The readiness check's name, and `directory` in the follower's log lines. */
  name: string;
  handle(msg: AccountMessage): void;
  /** Fields logged with "directory caught up". */
  summary(): Record<string, unknown>;
}

/** Follows a compacted topic from its beginning into what `handle` keeps. */
export function followTopic({
  bus,
  logger,
  topic,
  groupId,
  name,
  handle,
  summary,
}: TopicFollowerOptions): TopicFollower {
  let subscription: AccountSubscription | undefined;
  let catchUp: Promise<void> | undefined;
  let ready = false;

  return {
    async start() {
      if (subscription) return;
      await bus.ensureTopics([{ topic, compacted: true }]);
      subscription = await bus.subscribe({
        groupId: `${groupId}.${randomUUID()}`,
        topics: [topic],
        fromBeginning: true,
        handler: async (msg) => handle(msg),
      });
      catchUp = subscription.caughtUp().then(
        () => {
          ready = true;
          logger.info('directory caught up', { directory: name, ...summary() });
        },
        (err: unknown) => {
          logger.error('directory failed to catch up', { directory: name, err });
          throw err;
        },
      );
      // Observed here so a failure is logged even if nobody awaits caughtUp().
      catchUp.catch(() => {});
    },
    caughtUp() {
      return catchUp ?? Promise.reject(new Error(`${name} not started`));
    },
    isReady: () => ready,
    readiness: { name, isReady: () => ready },
    async close() {
      ready = false;
      const current = subscription;
      subscription = undefined;
      await current?.stop();
    },
  };
}

import type { EventEnvelope } from '@msg/contracts';

/** A message to publish. `key` picks the partition, so messages with one key stay in order. */
export interface BusMessage {
  key: string;
  value: EventEnvelope;
  headers?: Record<string, string>;
}

/** A message as a handler sees it, with where it came from. */
export interface ConsumedMessage {
  topic: string;
  partition: number;
  /** Kafka offsets are 64-bit, hence a string. */
  offset: string;
  key: string | null;
  value: EventEnvelope;
  headers: Record<string, string>;
}

export interface TopicSpec {
  topic: string;
  /** Defaults to 3. */
  partitions?: number;
  /** Keep only the latest message per key (cleanup.policy=compact). */
  compacted?: boolean;
}

export interface SubscribeOptions {
  groupId: string;
  topics: string[];
  /** A group with no committed position starts at the oldest message instead of new ones only. */
  fromBeginning?: boolean;
  /** Resolving marks the message done; throwing retries it (then dead-letters it). */
  handler(msg: ConsumedMessage): Promise<void>;
  /** Attempts before the message goes to Topics.deadLetter and consumption moves on. Default 5. */
  maxAttempts?: number;
  /**
   * Messages of one partition handled at once (default 1). Messages with the same key still go
   * one after the other, in order; a partition's position only moves past a message once it and
   * every message before it finished, so a crash re-delivers whatever was unfinished.
   */
  concurrency?: number;
  /**
   * Keep per-key order under concurrency (default true). A consumer to which the order of one
   * key's messages does not matter (the SMPP connector: one account's SMS are independent) turns
   * it off so one busy key can still fill the window; commits stay contiguous either way.
   */
  keyOrdering?: boolean;
  /**
   * Messages the handler would pass over, told by their headers alone: they count as handled
   * without being decoded, checked against the schema or handed over. Several consumer groups
   * read the same busy topic and each wants a small part of it (sms.status.v1 by `source`).
   */
  skip?(headers: Readonly<Record<string, string>>): boolean;
}

export interface Subscription {
  /** Resolves once every message present at subscribe time has been handled (by this group). */
  caughtUp(): Promise<void>;
  stop(): Promise<void>;
}

export interface Bus {
  /** Creates the topics that are missing; existing topics are left as they are. */
  ensureTopics(specs: TopicSpec[]): Promise<void>;
  /** Resolves once the broker (or the in-process log) has stored every message. */
  publish(topic: string, messages: BusMessage[]): Promise<void>;
  /** The topics must exist (ensureTopics) — a typo must fail rather than create a topic. */
  subscribe(opts: SubscribeOptions): Promise<Subscription>;
  isReady(): boolean;
  close(): Promise<void>;
}

/** How long a failing handler waits between attempts: doubling from initialMs up to maxMs. */
export interface HandlerRetryOptions {
  initialDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_PARTITIONS = 3;
export const DEFAULT_MAX_ATTEMPTS = 5;
export const DEFAULT_CONCURRENCY = 1;
export const DEFAULT_HANDLER_RETRY: HandlerRetryOptions = {
  initialDelayMs: 200,
  maxDelayMs: 5_000,
};

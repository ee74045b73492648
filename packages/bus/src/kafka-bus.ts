import { setTimeout as sleep } from 'node:timers/promises';
import { Topics } from '@msg/contracts';
import type { Logger } from '@msg/logger';
import { type Admin, Kafka, logLevel, type Message, Partitioners, type Producer } from 'kafkajs';
import type { Registry } from 'prom-client';
import { checkOutgoing, type EventSchemaLookup } from './event-validation.js';
import { errorMessage } from './handler-retry.js';
import { encodeMessage } from './kafka-codec.js';
import { kafkaLogCreator } from './kafka-logging.js';
import { createKafkaMetrics, noKafkaMetrics } from './kafka-metrics.js';
import {
  isRetriable,
  type KafkaSubscription,
  startKafkaSubscription,
} from './kafka-subscription.js';
import {
  type Bus,
  DEFAULT_HANDLER_RETRY,
  DEFAULT_PARTITIONS,
  type HandlerRetryOptions,
  type TopicSpec,
} from './types.js';

export interface KafkaBusOptions {
  brokers: string[];
  clientId: string;
  logger: Logger;
  handlerRetry?: HandlerRetryOptions;
  /** Partitions handled at once; within a partition, see SubscribeOptions.concurrency. */
  partitionsConsumedConcurrently?: number;
  /**
   * How long the group waits for a silent member before giving its partitions away: after a
   * kill -9 its partitions stall this long (kafkajs has no static membership, so a restarted
   * process joins as a new member and does not take the old one's place). Consumers heartbeat
   * while handlers run, so this bounds a dead process, not a slow handler. Default 10 s; the
   * broker refuses less than its group.min.session.timeout.ms (6 s by default).
   */
  sessionTimeoutMs?: number;
  /** How often consumers heartbeat; at most a third of the session. Default 1 s. */
  heartbeatIntervalMs?: number;
  /** Where consumer health (joined, lag) and the connection state go as metrics; none by default. */
  metrics?: Registry;
  /** Which schema each topic's events must follow; default the contracts' (packages/contracts). */
  schemaOf?: EventSchemaLookup;
}

export const DEFAULT_SESSION_TIMEOUT_MS = 10_000;
export const DEFAULT_HEARTBEAT_INTERVAL_MS = 1_000;

/** How often ensureTopics looks again after a transient answer, and the first pause (grows). */
const ENSURE_TOPICS_ATTEMPTS = 8;
const ENSURE_TOPICS_RETRY_MS = 250;

const CLIENT_RETRY = { initialRetryTime: 300, maxRetryTime: 5_000, retries: 8 };
/**
 * Bounded, so a publish fails while the broker is away instead of hanging forever; the outbox
 * relay then tries again. Roughly 20 s of retrying.
 */
const PRODUCER_RETRY = { initialRetryTime: 300, maxRetryTime: 5_000, retries: 6 };
const HEALTH_PROBE_MS = 5_000;

/**
 * The bus on Kafka (kafkajs): idempotent producer with acks from all in-sync replicas, default
 * (murmur2) key partitioning, consumer groups, offsets committed only after the handler
 * succeeded (at-least-once), retries then dead-letter, and automatic recovery from broker
 * restarts. Connects in the background at once; operations wait for the connection.
 */
export function createKafkaBus({
  brokers,
  clientId,
  logger,
  handlerRetry = DEFAULT_HANDLER_RETRY,
  partitionsConsumedConcurrently = DEFAULT_PARTITIONS,
  sessionTimeoutMs = DEFAULT_SESSION_TIMEOUT_MS,
  heartbeatIntervalMs = DEFAULT_HEARTBEAT_INTERVAL_MS,
  metrics,
  schemaOf,
}: KafkaBusOptions): Bus {
  if (heartbeatIntervalMs * 3 > sessionTimeoutMs) {
    // Kafka's own rule of thumb: a member missing one or two heartbeats must not lose its place.
    throw new Error(
      `bus: heartbeat interval ${heartbeatIntervalMs} ms must be at most a third of the session timeout ${sessionTimeoutMs} ms`,
    );
  }
  const log = logger.child({ component: 'bus' });
  const kafka = new Kafka({
    clientId,
    brokers,
    connectionTimeout: 3_000,
    retry: CLIENT_RETRY,
    logLevel: logLevel.WARN,
    logCreator: kafkaLogCreator(logger),
  });
  const subscriptions = new Set<KafkaSubscription>();
  let adminConnection: Promise<Admin> | undefined;
  let producerConnection: Promise<Producer> | undefined;
  let healthy = false;
  let healthProbe: NodeJS.Timeout | undefined;
  let closed = false;
  const consumerMetrics = metrics
    ? createKafkaMetrics(metrics, () => !closed && healthy)
    : noKafkaMetrics;

  function connectAdmin(): Promise<Admin> {
    adminConnection ??= (async () => {
      const admin = kafka.admin({ retry: CLIENT_RETRY });
      await admin.connect();
      return admin;
    })().catch((error: unknown) => {
      adminConnection = undefined;
      throw error;
    });
    return adminConnection;
  }

  function connectProducer(): Promise<Producer> {
    producerConnection ??= (async () => {
      const producer = kafka.producer({
        idempotent: true,
        // One request in flight per broker: a retried batch cannot overtake the next one.
        maxInFlightRequests: 1,
        allowAutoTopicCreation: false,
        createPartitioner: Partitioners.DefaultPartitioner,
        retry: PRODUCER_RETRY,
      });
      await producer.connect();
      return producer;
    })().catch((error: unknown) => {
      producerConnection = undefined;
      throw error;
    });
    return producerConnection;
  }

  /**
   * After a failed send the idempotent producer's sequence numbers may be out of step with the
   * broker's, which kafkajs never recovers from; a fresh producer gets a fresh producer id.
   */
  function discardProducer(failed: Promise<Producer>): void {
    if (producerConnection !== failed) return;
    producerConnection = undefined;
    failed.then((p) => p.disconnect()).catch(() => {});
  }

  function setHealth(ok: boolean): void {
    if (closed) return;
    healthy = ok;
    if (ok) {
      clearInterval(healthProbe);
      healthProbe = undefined;
    } else {
      // Nothing may publish for a while: find out by ourselves when the broker is back.
      healthProbe ??= setInterval(() => {
        connectAdmin()
          .then((admin) => admin.describeCluster())
          .then(
            () => setHealth(true),
            () => {},
          );
      }, HEALTH_PROBE_MS).unref();
    }
  }

  async function send(topic: string, messages: Message[]): Promise<void> {
    if (closed) throw new Error('bus: closed');
    if (messages.length === 0) return;
    const connection = connectProducer();
    try {
      const producer = await connection;
      await producer.send({ topic, messages, acks: -1 });
      setHealth(true);
    } catch (error) {
      discardProducer(connection);
      setHealth(false);
      log.warn('bus publish failed', { topic, count: messages.length, error: errorMessage(error) });
      throw error;
    }
  }

  async function ensureTopics(specs: TopicSpec[]): Promise<void> {
    // Services starting together on a new cluster race to create the same topics: the loser's
    // createTopics can fail while the winner's topic has no leader yet ("This server does not host
    // this topic-partition"). Such an answer is transient, so look again instead of failing start-up.
    for (let attempt = 1; ; attempt += 1) {
      try {
        await createMissingTopics(specs);
        return;
      } catch (error) {
        if (attempt >= ENSURE_TOPICS_ATTEMPTS || !retriableWithin(error)) throw error;
        log.warn('bus topics not ready, trying again', { attempt, error: errorMessage(error) });
        await sleep(ENSURE_TOPICS_RETRY_MS * attempt);
      }
    }
  }

  async function createMissingTopics(specs: TopicSpec[]): Promise<void> {
    const admin = await connectAdmin();
    const existing = new Set(await admin.listTopics());
    const missing = specs.filter((s) => !existing.has(s.topic));
    if (missing.length > 0) {
      // Returns false instead of failing when another replica created them first.
      await admin.createTopics({
        waitForLeaders: true,
        topics: missing.map(({ topic, partitions = DEFAULT_PARTITIONS, compacted = false }) => ({
          topic,
          numPartitions: partitions,
          configEntries: compacted ? [{ name: 'cleanup.policy', value: 'compact' }] : [],
        })),
      });
      log.info('bus topics created', { topics: missing.map((s) => s.topic) });
    }
    // Throws while a topic (ours or the other replica's) has no leader yet.
    await admin.fetchTopicMetadata({ topics: specs.map((s) => s.topic) });
  }

  // Connect now so that isReady() turns true without waiting for a first publish.
  connectProducer().then(
    () => setHealth(true),
    (error: unknown) => {
      log.warn('bus connect failed', { error: errorMessage(error) });
      setHealth(false);
    },
  );

  return {
    ensureTopics,

    async publish(topic, messages) {
      checkOutgoing(topic, messages, schemaOf);
      await send(topic, messages.map(encodeMessage));
    },

    async subscribe(opts) {
      if (closed) throw new Error('bus: closed');
      await ensureTopics([{ topic: Topics.deadLetter }]);
      const subscription = await startKafkaSubscription(
        {
          kafka,
          admin: connectAdmin,
          sendDeadLetter: (message) => send(Topics.deadLetter, [message]),
          logger: log,
          handlerRetry,
          partitionsConsumedConcurrently,
          sessionTimeoutMs,
          heartbeatIntervalMs,
          metrics: consumerMetrics,
          onHealth: setHealth,
          schemaOf,
        },
        opts,
      );
      subscriptions.add(subscription);
      return {
        caughtUp: () => subscription.caughtUp(),
        async stop() {
          subscriptions.delete(subscription);
          await subscription.stop();
        },
      };
    },

    isReady: () => !closed && healthy && ![...subscriptions].some((s) => s.isCrashed()),

    async close() {
      if (closed) return;
      await Promise.allSettled([...subscriptions].map((s) => s.stop()));
      subscriptions.clear();
      closed = true;
      clearInterval(healthProbe);
      const connections = [producerConnection, adminConnection];
      await Promise.allSettled(connections.map((c) => c?.then((client) => client.disconnect())));
    },
  };
}

/** kafkajs wraps the answer that failed its own retries: look inside for the retriable one. */
function retriableWithin(error: unknown): boolean {
  if (isRetriable(error)) return true;
  const inner =
    typeof error === 'object' && error !== null ? Reflect.get(error, 'originalError') : undefined;
  return inner !== undefined && isRetriable(inner);
}

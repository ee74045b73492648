import { setTimeout as sleep } from 'node:timers/promises';
import { backoffDelay } from '@msg/backoff';
import type { EventEnvelope } from '@msg/contracts';
import type { Logger } from '@msg/logger';
import type { Pool, PoolClient } from 'pg';
import { errorMessage } from '../handler-retry.js';
import type { Bus, BusMessage } from '../types.js';
import { outboxChannel } from './enqueue.js';
import { createRelayWakeup, type RelayWakeup } from './relay-wakeup.js';
import { quoteSchema } from './schema-name.js';

export interface OutboxRelayOptions {
  pool: Pool;
  schema: string;
  bus: Bus;
  logger: Logger;
  /**
   * Pause between looks at an empty outbox when the relay cannot LISTEN (a pool of one
   * connection, or the LISTEN connection is down). Default 250 ms.
   */
  pollIntervalMs?: number;
  /**
   * Pause between looks while it LISTENs: commits wake it (enqueueOutbox notifies), so this only
   * bounds how long a lost notification delays rows. Default 2 s.
   */
  fallbackPollMs?: number;
  /**
   * Whether to hold a LISTEN connection of its own, outside the pool. Default: when the pool may
   * open more than one connection (a one-connection server would give its only session to it).
   */
  listen?: boolean;
  /** Rows per transaction. Default 500. */
  batchSize?: number;
  /** How long published outbox rows are kept (for diagnosis) before being deleted. Default 24 h. */
  retainPublishedMs?: number;
  /**
   * How long consumers' processed-event marks are kept. A redelivery older than this would be
   * handled again, so it must exceed any redelivery a consumer can see. Default 7 days.
   */
  retainProcessedMs?: number;
  /** How often the purge runs. Default 10 min. */
  purgeEveryMs?: number;
}

export interface OutboxRelay {
  start(): void;
  /** Finishes the batch in flight, then stops. */
  stop(): Promise<void>;
  /** Publishes every row pending now (this relay's count); for tests and shutdown. */
  drain(): Promise<number>;
  /** Deletes rows past their retention now (the loop also does it every purgeEveryMs). */
  purge(): Promise<{ outbox: number; processed: number }>;
}

interface OutboxRow {
  seq: string;
  id: string;
  topic: string;
  key: string;
  value: EventEnvelope;
  headers: Record<string, string> | null;
}

/** Advisory-lock namespace of outbox relays ('outb'); the second key is the schema's hash. */
const RELAY_LOCK_CLASS = 0x6f757462;
const MAX_ERROR_BACKOFF_MS = 10_000;

/**
 * Publishes outbox rows in `seq` order and marks them published, at-least-once: a crash after
 * publishing and before the commit publishes them again (consumers dedupe on the event id).
 * Replicas take turns through a transaction-scoped advisory lock, so rows of one key are never
 * published by two relays at once and out of order; FOR UPDATE SKIP LOCKED additionally keeps
 * any row from being taken twice.
 *
 * It is woken, not timed: enqueueOutbox notifies the schema's channel in the writing transaction,
 * every relay LISTENing on a connection of its own hears it at commit, and whoever holds the turn
 * publishes. Polling remains as a safety net (fallbackPollMs), and is all there is when the relay
 * cannot LISTEN (pollIntervalMs).
 */
export function createOutboxRelay({
  pool,
  schema,
  bus,
  logger,
  pollIntervalMs = 250,
  fallbackPollMs = 2_000,
  listen = (pool.options.max ?? 10) > 1,
  batchSize = 500,
  retainPublishedMs = 24 * 3600_000,
  retainProcessedMs = 7 * 24 * 3600_000,
  purgeEveryMs = 10 * 60_000,
}: OutboxRelayOptions): OutboxRelay {
  const table = `${quoteSchema(schema)}."outbox_event"`;
  const processedTable = `${quoteSchema(schema)}."processed_event"`;
  let lastPurge = Date.now();
  const log = logger.child({ component: 'outbox-relay', schema });
  let queue: Promise<unknown> = Promise.resolve();
  let loop: Promise<void> | undefined;
  let stopping: AbortController | undefined;
  let wakeup: RelayWakeup | undefined;

  /** One batch at a time per relay, whether from the loop or from drain(). */
  function serialized<T>(work: () => Promise<T>): Promise<T> {
    const run = queue.then(work);
    queue = run.catch(() => {});
    return run;
  }

  async function relayBatch(): Promise<number> {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const { rows: lock } = await client.query<{ locked: boolean }>(
        'SELECT pg_try_advisory_xact_lock($1, hashtext($2)) AS locked',
        [RELAY_LOCK_CLASS, schema],
      );
      if (!lock[0]?.locked) {
        await client.query('COMMIT');
        client.release();
        return 0;
      }
      const { rows } = await client.query<OutboxRow>(
        `SELECT "seq", "id", "topic", "key", "value", "headers" FROM ${table}
         WHERE "published_at" IS NULL ORDER BY "seq" LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [batchSize],
      );
      for (const run of runsByTopic(rows)) {
        await bus.publish(run.topic, run.messages);
      }
      if (rows.length > 0) {
        await client.query(
          `UPDATE ${table} SET "published_at" = now() WHERE "seq" = ANY($1::bigint[])`,
          [rows.map((r) => r.seq)],
        );
      }
      await client.query('COMMIT');
      client.release();
      return rows.length;
    } catch (error) {
      await rollback(client);
      throw error;
    }
  }

  async function rollback(client: PoolClient): Promise<void> {
    try {
      await client.query('ROLLBACK');
      client.release();
    } catch (error) {
      // The connection itself is broken: drop it from the pool.
      client.release(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** Bounded deletes, so a long backlog of old rows never holds locks for long. */
  async function purge(): Promise<{ outbox: number; processed: number }> {
    lastPurge = Date.now();
    const outbox = await pool.query(
      `DELETE FROM ${table} WHERE "seq" IN (SELECT "seq" FROM ${table}
         WHERE "published_at" < now() - make_interval(secs => $1) LIMIT 10000)`,
      [retainPublishedMs / 1000],
    );
    const processed = await pool.query(
      `DELETE FROM ${processedTable} WHERE ("consumer", "event_id") IN (
         SELECT "consumer", "event_id" FROM ${processedTable}
         WHERE "processed_at" < now() - make_interval(secs => $1) LIMIT 10000)`,
      [retainProcessedMs / 1000],
    );
    return { outbox: outbox.rowCount ?? 0, processed: processed.rowCount ?? 0 };
  }

  async function pendingUpTo(seq: string): Promise<boolean> {
    const { rows } = await pool.query(
      `SELECT 1 FROM ${table} WHERE "published_at" IS NULL AND "seq" <= $1 LIMIT 1`,
      [seq],
    );
    return rows.length > 0;
  }

  async function runLoop(signal: AbortSignal, woken: RelayWakeup): Promise<void> {
    let failures = 0;
    while (!signal.aborted) {
      let delay = woken.listening ? fallbackPollMs : pollIntervalMs;
      try {
        const published = await serialized(relayBatch);
        if (Date.now() - lastPurge >= purgeEveryMs) await serialized(purge);
        failures = 0;
        // A full batch means more is probably waiting.
        if (published >= batchSize) delay = 0;
      } catch (error) {
        failures++;
        // Twice the poll interval after the first failure, doubling to MAX_ERROR_BACKOFF_MS.
        delay = backoffDelay(failures + 1, {
          baseMs: pollIntervalMs,
          maxMs: MAX_ERROR_BACKOFF_MS,
          jitter: 'none',
        });
        log.warn('outbox relay batch failed', {
          failures,
          retryInMs: delay,
          error: errorMessage(error),
        });
        // A notification must not cut the backoff short.
        await sleep(delay, undefined, { signal }).catch(() => {});
        continue;
      }
      // Notifications that came during the batch wake the next one at once: they coalesce.
      if (delay > 0) await woken.wait(delay, signal);
    }
  }

  return {
    start() {
      if (loop) return;
      stopping = new AbortController();
      wakeup = createRelayWakeup({ pool, channel: outboxChannel(schema), logger: log, listen });
      loop = runLoop(stopping.signal, wakeup);
    },

    async stop() {
      stopping?.abort();
      await Promise.all([loop, wakeup?.close()]);
      loop = undefined;
      wakeup = undefined;
    },

    purge: () => serialized(purge),

    async drain() {
      const { rows } = await pool.query<{ last: string | null }>(
        `SELECT max("seq")::text AS last FROM ${table} WHERE "published_at" IS NULL`,
      );
      const last = rows[0]?.last;
      if (!last) return 0;
      let total = 0;
      for (;;) {
        const published = await serialized(relayBatch);
        total += published;
        if (published > 0) continue;
        // Nothing for us: either all done, or another relay holds the turn right now.
        if (!(await pendingUpTo(last))) return total;
        await sleep(50);
      }
    },
  };
}

/** Consecutive rows of one topic, in seq order: one publish call each, keeping overall order. */
function runsByTopic(rows: OutboxRow[]): { topic: string; messages: BusMessage[] }[] {
  const runs: { topic: string; messages: BusMessage[] }[] = [];
  for (const row of rows) {
    const message: BusMessage = {
      key: row.key,
      value: row.value,
      ...(row.headers ? { headers: row.headers } : {}),
    };
    const last = runs.at(-1);
    if (last && last.topic === row.topic) last.messages.push(message);
    else runs.push({ topic: row.topic, messages: [message] });
  }
  return runs;
}

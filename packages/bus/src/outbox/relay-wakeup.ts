import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '@msg/logger';
import pg from 'pg';
import { errorMessage } from '../handler-retry.js';

/**
 * What wakes an outbox relay: a NOTIFY on its channel (enqueueOutbox sends one in the writing
 * transaction, delivered at commit), or the end of a wait. Wake-ups coalesce: any number of
 * notifications while the relay is busy leave one pending wake, so a burst of a thousand commits
 * costs a few batches, not a thousand.
 */
export interface RelayWakeup {
  /** Whether the LISTEN connection is up (then the relay only polls as a safety net). */
  readonly listening: boolean;
  /** Resolves at the next wake-up (at once if one came since the last wait), or after `ms`. */
  wait(ms: number, signal: AbortSignal): Promise<void>;
  /** Wakes the relay now. */
  wake(): void;
  /** Closes the LISTEN connection for good. */
  close(): Promise<void>;
}

export interface RelayWakeupOptions {
  pool: pg.Pool;
  channel: string;
  logger: Logger;
  /**
   * Whether to hold a LISTEN connection of its own (outside the pool, but to the same server).
   * Off for a pool of one connection (a server that allows no more), where it would hold the
   * only session: the relay then polls.
   */
  listen: boolean;
  /** How long connecting may take before the relay goes on polling and tries again later. */
  connectTimeoutMs?: number;
  /** Pause before reconnecting a lost LISTEN connection. */
  reconnectMs?: number;
}

export function createRelayWakeup({
  pool,
  channel,
  logger,
  listen,
  connectTimeoutMs = 5_000,
  reconnectMs = 1_000,
}: RelayWakeupOptions): RelayWakeup {
  let pending = false;
  let resolveWait: (() => void) | undefined;
  let listening = false;
  const closing = new AbortController();

  function wake(): void {
    pending = true;
    resolveWait?.();
  }

  function wait(ms: number, signal: AbortSignal): Promise<void> {
    if (pending || signal.aborted) {
      pending = false;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolveWait = undefined;
        pending = false;
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
      resolveWait = done;
    });
  }

  /** One LISTEN session: resolves when it ends (error, server gone, or close()). */
  async function listenOnce(): Promise<void> {
    const client = new pg.Client({
      ...pool.options,
      connectionTimeoutMillis: connectTimeoutMs,
      // An idle LISTEN connection would not notice a vanished server otherwise (the fallback
      // poll covers the time until it does).
      keepAlive: true,
      application_name: `${pool.options.application_name ?? 'outbox'}-listen`,
    });
    let over = false;
    let established = false;
    let endSession = () => {};
    const ended = new Promise<void>((resolve) => {
      endSession = () => {
        over = true;
        resolve();
      };
    });
    client.on('error', (error) => {
      logger.warn('outbox relay lost its LISTEN connection', { error: errorMessage(error) });
      endSession();
    });
    client.on('end', () => endSession());
    closing.signal.addEventListener('abort', endSession, { once: true });
    client.on('notification', wake);
    try {
      const listened = client.connect().then(() => client.query(`LISTEN "${channel}"`));
      listened.catch(() => {}); // when the session ends first, its failure is of no interest
      // Stopping (or losing the server) while connecting ends the attempt without waiting for it.
      await Promise.race([listened, ended]);
      if (over) return;
      established = true;
      listening = true;
      // Rows committed while nobody listened were never announced.
      wake();
      await ended;
    } finally {
      listening = false;
      closing.signal.removeEventListener('abort', endSession);
      // A client still connecting may not finish ending before its connect timeout: do not wait.
      const closed = client.end().catch(() => {});
      if (established) await closed;
    }
  }

  async function keepListening(): Promise<void> {
    while (!closing.signal.aborted) {
      await listenOnce().catch((error: unknown) => {
        logger.warn('outbox relay cannot LISTEN, polling instead', { error: errorMessage(error) });
      });
      await sleep(reconnectMs, undefined, { signal: closing.signal }).catch(() => {});
    }
  }

  const running = listen ? keepListening() : Promise.resolve();

  return {
    get listening() {
      return listening;
    },
    wait,
    wake,
    async close() {
      closing.abort();
      await running;
    },
  };
}

import { setTimeout as sleep } from 'node:timers/promises';
import { backoffDelay as exponentialBackoff } from '@msg/backoff';
import type { Logger } from '@msg/logger';
import type { ConsumedMessage, HandlerRetryOptions } from './types.js';

export type HandlerOutcome =
  | { kind: 'handled' }
  | { kind: 'failed'; error: unknown; attempts: number }
  /** The subscription is stopping: leave the message unhandled so it is delivered again later. */
  | { kind: 'stopped' };

export interface RunHandlerOptions {
  handler: (msg: ConsumedMessage) => Promise<void>;
  message: ConsumedMessage;
  groupId: string;
  maxAttempts: number;
  retry: HandlerRetryOptions;
  /** Aborted when the subscription stops, which also cuts a backoff wait short. */
  signal: AbortSignal;
  logger: Logger;
  /** Called between attempts (Kafka: heartbeat, so a long backoff does not cost the partition). */
  betweenAttempts?: () => Promise<void>;
}

/** The wait after `failedAttempts` failures: doubling from initialDelayMs, no jitter (one consumer
 * retrying its own message). */
export function backoffDelay(retry: HandlerRetryOptions, failedAttempts: number): number {
  return exponentialBackoff(failedAttempts, {
    baseMs: retry.initialDelayMs,
    maxMs: retry.maxDelayMs,
    jitter: 'none',
  });
}

/** Runs a handler until it succeeds or has failed `maxAttempts` times, backing off in between. */
export async function runHandlerWithRetries(opts: RunHandlerOptions): Promise<HandlerOutcome> {
  const { message, logger } = opts;
  for (let attempt = 1; ; attempt++) {
    if (opts.signal.aborted) return { kind: 'stopped' };
    try {
      await opts.handler(message);
      return { kind: 'handled' };
    } catch (error) {
      logger.warn('bus handler failed', {
        topic: message.topic,
        partition: message.partition,
        offset: message.offset,
        eventId: message.value.id,
        groupId: opts.groupId,
        attempt,
        maxAttempts: opts.maxAttempts,
        error: errorMessage(error),
      });
      if (attempt >= opts.maxAttempts) return { kind: 'failed', error, attempts: attempt };
    }
    try {
      await sleep(backoffDelay(opts.retry, attempt), undefined, { signal: opts.signal });
    } catch {
      return { kind: 'stopped' };
    }
    await opts.betweenAttempts?.();
  }
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

import type { RateLimiter } from '@msg/auth';
import { backoffDelay } from '@msg/backoff';
import { pause } from './abortable-sleep.js';

/** Longest pause after the SMSC said it is throttling or its queue is full. */
const MAX_THROTTLE_BACKOFF_MS = 5_000;

/**
 * Waits for one token of `key`'s bucket. A bucket holds a tenth of a second of traffic (at least
 * one part), so a limit is kept smoothly rather than as a burst at the start of each second —
 * SMSCs usually count submits in a sliding second.
 */
export async function takeToken(
  limiter: RateLimiter,
  key: string,
  perSecond: number,
  signal: AbortSignal,
): Promise<void> {
  const limit = { perSecond, burst: Math.max(1, Math.ceil(perSecond / 10)) };
  for (;;) {
    const decision = limiter.take(key, limit);
    if (decision.allowed) return;
    await pause(Math.max(1, decision.retryAfterSeconds * 1000), signal);
  }
}

/**
 * How fast one bind may go: its configured tps, halved on every throttling answer (down to a
 * tenth) with a pause that doubles from `initialBackoffMs` to 5 s; each accepted submit earns
 * back a little, so the rate climbs again once the SMSC stops refusing.
 */
export function createBindPacer({
  limiter,
  key,
  tps,
  initialBackoffMs,
}: {
  limiter: RateLimiter;
  key: string;
  tps: number;
  initialBackoffMs: number;
}) {
  let factor = 1;
  /** Throttling answers since the last accepted submit: the backoff's attempt. */
  let throttled = 0;
  let pausedUntil = 0;
  return {
    async wait(signal: AbortSignal): Promise<void> {
      const now = Date.now();
      if (pausedUntil > now) await pause(pausedUntil - now, signal);
      await takeToken(limiter, key, Math.max(0.1, tps * factor), signal);
    },
    slowDown(): void {
      throttled += 1;
      factor = Math.max(0.1, factor / 2);
      // No jitter: one bind backs off from its own SMSC, there is no crowd to spread.
      pausedUntil =
        Date.now() +
        backoffDelay(throttled, {
          baseMs: initialBackoffMs,
          maxMs: MAX_THROTTLE_BACKOFF_MS,
          jitter: 'none',
        });
    },
    accepted(): void {
      throttled = 0;
      factor = Math.min(1, factor * 1.05);
    },
    get currentTps() {
      return tps * factor;
    },
  };
}

export type BindPacer = ReturnType<typeof createBindPacer>;

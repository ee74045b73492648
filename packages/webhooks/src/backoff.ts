import { backoffDelay as exponentialBackoff } from '@msg/backoff';

export interface BackoffOptions {
  /** Upper bound of the first delay. Default 1 s. */
  baseMs?: number;
  /** No delay is ever longer. Default 10 minutes. */
  maxMs?: number;
  /** Source of randomness in [0, 1); tests pass their own. */
  random?: () => number;
}

/**
 * Delay before the next callback attempt after `attempt` failed attempts (1 = the first failed):
 * @msg/backoff's formula with full jitter, a uniform draw in [0, min(maxMs, baseMs * 2^(attempt-1))].
 * Full jitter spreads the retries of many callbacks that failed together (a receiver outage),
 * so they do not come back as one wave when the receiver recovers.
 */
export function backoffDelay(
  attempt: number,
  { baseMs = 1_000, maxMs = 10 * 60_000, random = Math.random }: BackoffOptions = {},
): number {
  return exponentialBackoff(attempt, { baseMs, maxMs, jitter: 'full' }, random);
}

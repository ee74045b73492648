export interface BackoffOptions {
  /** Upper bound of the first delay. Default 1 s. */
  baseMs?: number;
  /** No delay is ever longer. Default 10 minutes. */
  maxMs?: number;
  /** Source of randomness in [0, 1); tests pass their own. */
  random?: () => number;
}

/**
 * Delay before the next attempt after `attempt` failed attempts (1 = the first failed):
 * exponential with full jitter, a uniform draw in [0, min(maxMs, baseMs * 2^(attempt-1))].
 * Full jitter spreads the retries of many callbacks that failed together (a receiver outage),
 * so they do not come back as one wave when the receiver recovers.
 */
export function backoffDelay(
  attempt: number,
  { baseMs = 1_000, maxMs = 10 * 60_000, random = Math.random }: BackoffOptions = {},
): number {
  const exponent = Math.max(0, Math.floor(attempt) - 1);
  // 2^exponent overflows to Infinity for huge attempts, which min() turns into maxMs.
  const ceiling = Math.min(maxMs, baseMs * 2 ** exponent);
  return Math.floor(random() * ceiling);
}

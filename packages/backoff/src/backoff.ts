/** How the wait between attempts grows: doubling from `baseMs`, never past `maxMs`. */
export interface Backoff {
  /** The wait after the first failed attempt (with full jitter: its upper bound). */
  baseMs: number;
  /** No wait is ever longer. */
  maxMs: number;
  /**
   * `full`: a uniform draw of whole milliseconds in [0, the wait), so many clients that failed
   * together (a receiver outage) do not come back as one wave; `none`: the wait itself, for one
   * worker retrying its own work.
   */
  jitter: 'full' | 'none';
}

/**
 * The wait before the next attempt after `attempt` failed attempts (1 = the first failed):
 * min(maxMs, baseMs × 2^(attempt-1)), drawn from below it with full jitter. `random` is a source
 * in [0, 1); tests pass their own.
 */
export function backoffDelay(
  attempt: number,
  { baseMs, maxMs, jitter }: Backoff,
  random: () => number = Math.random,
): number {
  const exponent = Math.max(0, Math.floor(attempt) - 1);
  // 2^exponent overflows to Infinity for huge attempts, which min() turns into maxMs.
  const ceiling = Math.min(maxMs, baseMs * 2 ** exponent);
  return jitter === 'full' ? Math.floor(random() * ceiling) : ceiling;
}

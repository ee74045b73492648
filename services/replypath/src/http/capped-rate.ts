import type { RequestRateLimiter } from '@msg/auth';

/** Spec 8.2: the request rate is configured per account, at most 100 per second. */
export const MAX_REQUESTS_PER_SECOND = 100;

/**
 * The account's own rate and burst, never above `max` per second (nor a burst above `max`):
 * an account contract with a higher rate gets the interface's ceiling here.
 */
export function cappedRateLimiter(
  limiter: RequestRateLimiter,
  max = MAX_REQUESTS_PER_SECOND,
): RequestRateLimiter {
  return {
    take: (key, limit, cost) =>
      limiter.take(
        key,
        { perSecond: Math.min(limit.perSecond, max), burst: Math.min(limit.burst, max) },
        cost,
      ),
  };
}

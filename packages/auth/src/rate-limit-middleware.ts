import { RateLimitedError } from '@msg/http';
import type { Request, RequestHandler } from 'express';
import type { RateLimit, RateLimiter } from './rate-limiter.js';

export interface RateLimitPolicy extends RateLimit {
  key: string;
  cost?: number;
}

/**
 * Refuses a request with 429 + Retry-After when its bucket is empty. `policy` picks the bucket and
 * limit per request; returning undefined skips limiting (e.g. no account yet).
 *
 *   rateLimit(limiter, (req) => req.account && { key: req.account.id, ...req.account.rateLimit })
 */
export function rateLimit(
  limiter: RateLimiter,
  policy: (req: Request) => RateLimitPolicy | undefined,
): RequestHandler {
  return (req, _res, next) => {
    const chosen = policy(req);
    if (!chosen) {
      next();
      return;
    }
    const { key, cost, ...limit } = chosen;
    const decision = limiter.take(key, limit, cost);
    next(decision.allowed ? undefined : new RateLimitedError(decision.retryAfterSeconds));
  };
}

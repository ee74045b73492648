import { RateLimitedError } from '@msg/http';
import type { Request, RequestHandler } from 'express';
import type { RateDecision, RateLimit, RequestRateLimiter } from './rate-limiter.js';

export interface RateLimitPolicy extends RateLimit {
  key: string;
  cost?: number;
}

/**
 * Refuses a request with 429 + Retry-After when its bucket is empty (in this process with
 * createRateLimiter, or across replicas with createPostgresRateLimiter). `policy` picks the bucket and
 * limit per request; returning undefined skips limiting (e.g. no account yet).
 *
 *   rateLimit(limiter, (req) => req.account && { key: req.account.id, ...req.account.rateLimit })
 */
export function rateLimit(
  limiter: RequestRateLimiter,
  policy: (req: Request) => RateLimitPolicy | undefined,
): RequestHandler {
  return (req, _res, next) => {
    const chosen = policy(req);
    if (!chosen) {
      next();
      return;
    }
    const { key, cost, ...limit } = chosen;
    const decide = (decision: RateDecision) =>
      next(decision.allowed ? undefined : new RateLimitedError(decision.retryAfterSeconds));
    // Most requests are decided in this process: keep those synchronous.
    const decision = limiter.take(key, limit, cost);
    if (decision instanceof Promise) decision.then(decide, next);
    else decide(decision);
  };
}

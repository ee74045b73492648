import {
  apiKeyStrategy,
  authenticate,
  type CredentialVerifier,
  createPassport,
  type RequestRateLimiter,
  rateLimit,
  requireActive,
  requireAllowedIp,
  requirePermission,
} from '@msg/auth';
import { type RequestHandler, Router } from 'express';

export interface RcsAccessOptions {
  /** Checks X-Client-ID (account name, else id) and X-API-Key (one of its keys), as batch tokens. */
  verifier: CredentialVerifier;
  /** The shared Postgres buckets (createPostgresRateLimiter): the rate holds across replicas. */
  limiter: RequestRateLimiter;
  /** Requests per minute per client (RCS_RATE_LIMIT_PER_MINUTE; spec 8.4: 100). */
  perMinute: number;
}

/**
 * The access chain of every RCS operation (spec 5, 7.4): 401 when X-API-Key / X-Client-ID are
 * missing or do not match an account key; 403 when the account is disabled, lacks the 'rcs'
 * permission or calls from outside its IP allow-list; 429 with Retry-After past the client's
 * per-minute rate. Used as the document's `apiKeyAuth` security scheme, so it runs before body
 * validation. The account's own `rateLimit` is its SMS contract (per second), not the RCS rate:
 * the per-minute rate is the service's setting, the same for every client.
 */
export function rcsAccess({ verifier, limiter, perMinute }: RcsAccessOptions): RequestHandler {
  const passport = createPassport({ apiKey: apiKeyStrategy(verifier) });
  const chain = Router();
  chain.use(
    authenticate(passport, 'apiKey'),
    requireActive(),
    requirePermission('rcs'),
    requireAllowedIp(),
    rateLimit(
      limiter,
      (req) =>
        req.account && {
          key: `rcs:${req.account.id}`,
          perSecond: perMinute / 60,
          burst: perMinute,
        },
    ),
  );
  return chain;
}

import type { Permission } from '@msg/contracts';
import { type RequestHandler, Router } from 'express';
import { authenticate, createPassport } from './authenticate.js';
import type { CredentialVerifier } from './credential-verifier.js';
import { requireActive, requirePermission } from './guards.js';
import { requireAllowedIp } from './ip-allow-list.js';
import { rateLimit } from './rate-limit-middleware.js';
import type { RequestRateLimiter } from './rate-limiter.js';
import { basicStrategy } from './strategies/basic-strategy.js';

/**
 * What the interface needs: a permission (specification, general rule 3), whose name is also
 * the rate bucket's; or, for what every account has whatever it may use (its own callback
 * signing secret), no permission and a bucket name of its own.
 */
export type AccessRule = { permission: Permission } | { permission?: never; bucket: string };

export type AccountAccessOptions = AccessRule & {
  /** Sets req.account or answers 401 (e.g. `authenticate(passport, 'bearer')`). */
  authenticate: RequestHandler;
  /**
   * Buckets of the account's request rate; the bucket is per account and interface. With more
   * than one replica, createPostgresRateLimiter: the rate then holds across replicas.
   */
  limiter: RequestRateLimiter;
};

/**
 * The access chain every account-facing interface runs before anything else: who is calling
 * (401), may they use this interface now (403: disabled, permission not granted, address outside
 * the account's IP allow-list — checked on every request), and not too often (429 with
 * Retry-After, the account's own rate). Used as the authenticator of an OpenAPI security scheme
 * it runs before validation, so a refused caller learns nothing about the body rules and a flood
 * of bad requests is rate limited too.
 */
export function accountAccess(options: AccountAccessOptions): RequestHandler {
  const { authenticate: who, limiter } = options;
  const bucket = options.permission ?? options.bucket;
  const chain = Router();
  chain.use(
    who,
    requireActive(),
    ...(options.permission ? [requirePermission(options.permission)] : []),
    requireAllowedIp(),
    rateLimit(
      limiter,
      (req) => req.account && { key: `${bucket}:${req.account.id}`, ...req.account.rateLimit },
    ),
  );
  return chain;
}

/** {@link accountAccess} with HTTP Basic (account name case-insensitive, password exact). */
export function basicAccountAccess(
  verifier: CredentialVerifier,
  options: AccessRule & { realm: string; limiter: RequestRateLimiter },
): RequestHandler {
  const passport = createPassport({ basic: basicStrategy(verifier, { realm: options.realm }) });
  return accountAccess({ ...options, authenticate: authenticate(passport, 'basic') });
}

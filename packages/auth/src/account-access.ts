import type { Permission } from '@msg/contracts';
import { type RequestHandler, Router } from 'express';
import { authenticate, createPassport } from './authenticate.js';
import type { CredentialVerifier } from './credential-verifier.js';
import { requireActive, requirePermission } from './guards.js';
import { requireAllowedIp } from './ip-allow-list.js';
import { rateLimit } from './rate-limit-middleware.js';
import type { RequestRateLimiter } from './rate-limiter.js';
import { basicStrategy } from './strategies/basic-strategy.js';

export interface AccountAccessOptions {
  /** Sets req.account or answers 401 (e.g. `authenticate(passport, 'bearer')`). */
  authenticate: RequestHandler;
  /** The permission the interface needs (specification, general rule 3). */
  permission: Permission;
  /**
   * Buckets of the account's request rate; the bucket is per account and interface. With more
   * than one replica, createPostgresRateLimiter: the rate then holds across replicas.
   */
  limiter: RequestRateLimiter;
}

/**
 * The access chain every account-facing interface runs before anything else: who is calling
 * (401), may they use this interface now (403: disabled, permission not granted, address outside
 * the account's IP allow-list — checked on every request), and not too often (429 with
 * Retry-After, the account's own rate). Used as the authenticator of an OpenAPI security scheme
 * it runs before validation, so a refused caller learns nothing about the body rules and a flood
 * of bad requests is rate limited too.
 */
export function accountAccess({
  authenticate: who,
  permission,
  limiter,
}: AccountAccessOptions): RequestHandler {
  const chain = Router();
  chain.use(
    who,
    requireActive(),
    requirePermission(permission),
    requireAllowedIp(),
    rateLimit(
      limiter,
      (req) => req.account && { key: `${permission}:${req.account.id}`, ...req.account.rateLimit },
    ),
  );
  return chain;
}

/** {@link accountAccess} with HTTP Basic (account name case-insensitive, password exact). */
export function basicAccountAccess(
  verifier: CredentialVerifier,
  options: { realm: string; permission: Permission; limiter: RequestRateLimiter },
): RequestHandler {
  const passport = createPassport({ basic: basicStrategy(verifier, { realm: options.realm }) });
  return accountAccess({ ...options, authenticate: authenticate(passport, 'basic') });
}

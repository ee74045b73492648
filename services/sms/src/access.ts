import {
  authenticate,
  basicStrategy,
  type CredentialVerifier,
  createPassport,
  type RateLimiter,
  rateLimit,
  requireActive,
  requireAllowedIp,
  requirePermission,
} from '@msg/auth';
import { type RequestHandler, Router } from 'express';

/** Shown in the Basic challenge. */
export const BASIC_REALM = 'SMS';

/**
 * The basicAuth authenticator of the document: who is calling (401 with a Basic challenge), may
 * they (403: disabled, no 'sms' permission, address outside the allow-list), and not too often
 * (429 with Retry-After). It runs before body validation, so a refused caller learns nothing
 * about the body rules and a flood of bad bodies is rate limited too.
 */
export function smsAccess(verifier: CredentialVerifier, limiter: RateLimiter): RequestHandler {
  const passport = createPassport({ basic: basicStrategy(verifier, { realm: BASIC_REALM }) });
  const chain = Router();
  chain.use(
    authenticate(passport, 'basic'),
    requireActive(),
    requirePermission('sms'),
    requireAllowedIp(),
    rateLimit(
      limiter,
      (req) => req.account && { key: `sms:${req.account.id}`, ...req.account.rateLimit },
    ),
  );
  return chain;
}

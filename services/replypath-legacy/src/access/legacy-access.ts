import {
  accountGuard,
  accountStanding,
  authenticate,
  basicStrategy,
  type CredentialVerifier,
  createPassport,
  ipAllowed,
  type RequestRateLimiter,
  rateLimit,
} from '@msg/auth';
import type { AccountState } from '@msg/contracts';
import { UnauthorizedError } from '@msg/http';
import { type RequestHandler, Router } from 'express';

export const REALM = 'Reply-path';
export const CHALLENGE = `Basic realm="${REALM}"`;

/** The permission an operator grants for reply-path, current and legacy (general rule 3). */
const PERMISSION = 'replypath';

/** The distinct messages of each 401 (spec 7.3 and rule 5.3); tests match them. */
export const REFUSALS = {
  credentials: 'wrong user or password',
  inactive: 'account inactive: the contract is terminated',
  noAccess: "no access to the reply-path service: the account lacks the 'replypath' permission",
  noFunds: 'prepaid account without funds: top up the account',
  ip: 'IP restriction enabled and the calling address is not whitelisted for the account',
} as const;

const refuse = (message: string) => new UnauthorizedError(message, CHALLENGE);

/**
 * The first refusal of rule 5.3 that an authenticated account meets, in this order: inactive,
 * no access to the service, prepaid without funds, IP address not whitelisted; null when none.
 */
export function legacyRefusal(account: AccountState, ip: string | undefined): string | null {
  const standing = accountStanding(account);
  if (standing === 'inactive') return REFUSALS.inactive;
  if (!account.permissions.includes(PERMISSION)) return REFUSALS.noAccess;
  if (standing === 'no-funds') return REFUSALS.noFunds;
  if (!ipAllowed(account, ip)) return REFUSALS.ip;
  return null;
}

/**
 * The access chain of the legacy interface, run as the document's basicAuth before the body rules:
 * every refusal is a 401 with the Basic challenge (spec 7.3, rule 5.3), each with its own message,
 * in this order: credentials, inactive account, no access to the service, prepaid account without
 * funds, IP address not whitelisted. Then the account's request rate (429, Retry-After).
 *
 * `no-funds` is the directory's view (accounts.v1 says when a prepaid balance crosses zero); the
 * replypath service's debit is exact and refuses the send itself when the balance ran out since.
 */
export function legacyAccountAccess(
  verifier: CredentialVerifier,
  limiter: RequestRateLimiter,
): RequestHandler {
  const passport = createPassport({ basic: basicStrategy(verifier, { realm: REALM }) });
  const chain = Router();
  chain.use(
    authenticate(passport, 'basic', { onFailure: () => refuse(REFUSALS.credentials) }),
    accountGuard((account, req) => legacyRefusal(account, req.ip), { deny: refuse }),
    rateLimit(
      limiter,
      (req) =>
        req.account && { key: `${PERMISSION}-legacy:${req.account.id}`, ...req.account.rateLimit },
    ),
  );
  return chain;
}

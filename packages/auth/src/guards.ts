import type { AccountState, NumberScope, Permission } from '@msg/contracts';
import { ForbiddenError, UnauthorizedError } from '@msg/http';
import type { Request, RequestHandler } from 'express';

export interface GuardOptions {
  /**
   * Builds the refusal. Default 403 ForbiddenError: a refusal other credentials would not fix.
   * The legacy reply-path interface answers these with 401, so it passes
   * `(message) => new UnauthorizedError(message)`.
   */
  deny?: (message: string) => Error;
}

const forbid = (message: string): Error => new ForbiddenError(message);

/**
 * Runs `check` against the authenticated account. A guard mounted without `authenticate()` in front
 * of it is a wiring mistake; it fails closed with 401 rather than letting the request through.
 */
export function accountGuard(
  check: (account: AccountState, req: Request) => string | null,
  { deny = forbid }: GuardOptions = {},
): RequestHandler {
  return (req, _res, next) => {
    const account = req.account;
    if (!account) {
      next(new UnauthorizedError());
      return;
    }
    const refusal = check(account, req);
    next(refusal === null ? undefined : deny(refusal));
  };
}

/** Refuses disabled accounts (their credentials are valid, the contract is not). */
export function requireActive(options?: GuardOptions): RequestHandler {
  return accountGuard(
    (account) => (account.status === 'active' ? null : 'account disabled'),
    options,
  );
}

/** Refuses accounts without `permission` (e.g. 'text_to_voice'). */
export function requirePermission(permission: Permission, options?: GuardOptions): RequestHandler {
  return accountGuard(
    (account) =>
      account.permissions.includes(permission) ? null : `permission '${permission}' not granted`,
    options,
  );
}

/**
 * Refuses accounts lacking ANY of `scopes`. Number intelligence's views need their own scope AND
 * numbers:read, so pass both: `requireScopes('numbers:read', 'numbers:porting-history')`.
 */
export function requireScopes(...scopes: NumberScope[]): RequestHandler {
  return accountGuard((account) => {
    const missing = scopes.find((scope) => !account.numberScopes.includes(scope));
    return missing === undefined ? null : `scope '${missing}' not granted`;
  });
}

import type { AccountState } from '@msg/contracts';
import { UnauthorizedError } from '@msg/http';
import type { Request } from 'express';

/**
 * The authenticated account. The document's basicAuth runs before every operation, so a missing
 * account is a wiring mistake; it fails closed.
 */
export function requireAccount(req: Pick<Request, 'account'>): AccountState {
  if (!req.account) throw new UnauthorizedError();
  return req.account;
}

import type { AccountState } from '@msg/contracts';
import { UnauthorizedError } from '@msg/http';
import './types.js';

/**
 * The authenticated account of a request, for an operation handler. The document's security
 * scheme runs before every operation, so a missing account is a wiring mistake: it fails closed
 * with 401 (`message` is the interface's wording, e.g. 'access token required').
 */
export function requireAccount(req: { account?: AccountState }, message?: string): AccountState {
  if (!req.account) throw new UnauthorizedError(message);
  return req.account;
}

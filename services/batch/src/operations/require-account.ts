import type { AccountState } from '@msg/contracts';
import { UnauthorizedError } from '@msg/http';

/** The authenticated account; the bearerAuth authenticator has set it on every batch operation. */
export function requireAccount(req: { account?: AccountState }): AccountState {
  if (!req.account) throw new UnauthorizedError('access token required');
  return req.account;
}

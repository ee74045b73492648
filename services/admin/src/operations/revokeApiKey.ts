import type { RequestHandler } from 'express';
import type { Accounts } from '../accounts/accounts.js';

export function revokeApiKey(
  accounts: Accounts,
): RequestHandler<{ account: string; keyId: string }> {
  return async (req, res) => {
    await accounts.revokeApiKey(req.params.account, req.params.keyId, req.requestId);
    res.status(204).end();
  };
}

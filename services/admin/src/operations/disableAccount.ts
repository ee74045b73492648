import type { RequestHandler } from 'express';
import type { Accounts } from '../accounts/accounts.js';

export function disableAccount(accounts: Accounts): RequestHandler<{ account: string }> {
  return async (req, res) => {
    res.json(await accounts.setStatus(req.params.account, 'disabled', req.requestId));
  };
}

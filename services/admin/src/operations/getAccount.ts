import type { RequestHandler } from 'express';
import type { Accounts } from '../accounts/accounts.js';

export function getAccount(accounts: Accounts): RequestHandler<{ account: string }> {
  return async (req, res) => {
    res.json(await accounts.get(req.params.account));
  };
}

import type { RequestHandler } from 'express';
import type { Accounts } from '../accounts/accounts.js';
import type { AccountSettings } from '../accounts/settings.js';

export function updateAccount(
  accounts: Accounts,
): RequestHandler<{ account: string }, unknown, AccountSettings> {
  return async (req, res) => {
    res.json(await accounts.update(req.params.account, req.body, req.requestId));
  };
}

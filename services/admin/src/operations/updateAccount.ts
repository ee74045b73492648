import type { RequestHandler } from 'express';
import type { Accounts } from '../accounts/accounts.js';
import type { AccountSettings } from '../accounts/settings.js';

export function updateAccount(accounts: Accounts): RequestHandler<{ account: string }> {
  return async (req, res) => {
    const body: AccountSettings = req.body;
    res.json(await accounts.update(req.params.account, body, req.requestId));
  };
}

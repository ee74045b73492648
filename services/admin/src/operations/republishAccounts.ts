import type { RequestHandler } from 'express';
import type { Accounts } from '../accounts/accounts.js';

export function republishAccounts(accounts: Accounts): RequestHandler {
  return async (req, res) => {
    res.status(202).json({ queued: await accounts.republishAll(req.requestId) });
  };
}

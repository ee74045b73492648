import type { RequestHandler } from 'express';
import type { Accounts } from '../accounts/accounts.js';

export function topUpAccount(
  accounts: Accounts,
): RequestHandler<{ account: string }, unknown, { credits: number }> {
  return async (req, res) => {
    res.json(await accounts.topUp(req.params.account, req.body.credits, req.requestId));
  };
}

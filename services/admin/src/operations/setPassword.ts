import type { RequestHandler } from 'express';
import type { Accounts } from '../accounts/accounts.js';

export function setPassword(accounts: Accounts): RequestHandler<{ account: string }> {
  return async (req, res) => {
    const { password }: { password: string } = req.body;
    await accounts.setPassword(req.params.account, password, req.requestId);
    res.status(204).end();
  };
}

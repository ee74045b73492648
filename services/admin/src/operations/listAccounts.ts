import type { RequestHandler } from 'express';
import type { Accounts } from '../accounts/accounts.js';

export function listAccounts(accounts: Accounts): RequestHandler {
  return async (req, res) => {
    // The validator has checked and defaulted these query parameters.
    const { status, limit, offset } = req.query as {
      status?: 'active' | 'disabled';
      limit: number;
      offset: number;
    };
    res.json(await accounts.list({ ...(status && { status }), limit, offset }));
  };
}

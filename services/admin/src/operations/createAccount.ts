import type { RequestHandler } from 'express';
import type { Accounts, NewAccount } from '../accounts/accounts.js';

export function createAccount(accounts: Accounts): RequestHandler<object, unknown, NewAccount> {
  return async (req, res) => {
    res.status(201).json(await accounts.create(req.body, req.requestId));
  };
}

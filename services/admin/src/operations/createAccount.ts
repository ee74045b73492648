import type { RequestHandler } from 'express';
import type { Accounts, NewAccount } from '../accounts/accounts.js';

export function createAccount(accounts: Accounts): RequestHandler {
  return async (req, res) => {
    const body: NewAccount = req.body;
    res.status(201).json(await accounts.create(body, req.requestId));
  };
}

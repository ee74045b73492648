import type { operations } from '@msg/contracts/internal/admin';
import type { RequestHandler } from 'express';
import type { Accounts } from '../accounts/accounts.js';

type Body = operations['setPassword']['requestBody']['content']['application/json'];

export function setPassword(
  accounts: Accounts,
): RequestHandler<{ account: string }, unknown, Body> {
  return async (req, res) => {
    await accounts.setPassword(req.params.account, req.body.password, req.requestId);
    res.status(204).end();
  };
}

import type { operations } from '@msg/contracts/internal/admin';
import type { RequestHandler } from 'express';
import type { Accounts } from '../accounts/accounts.js';

type Body = NonNullable<operations['createApiKey']['requestBody']>['content']['application/json'];

export function createApiKey(
  accounts: Accounts,
): RequestHandler<{ account: string }, unknown, Body | undefined> {
  return async (req, res) => {
    const supplied = req.body?.apiKey;
    res.status(201).json(await accounts.addApiKey(req.params.account, supplied, req.requestId));
  };
}

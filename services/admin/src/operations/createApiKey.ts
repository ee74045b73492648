import type { RequestHandler } from 'express';
import type { Accounts } from '../accounts/accounts.js';

export function createApiKey(accounts: Accounts): RequestHandler<{ account: string }> {
  return async (req, res) => {
    const body: { apiKey?: string } | undefined = req.body;
    res.status(201).json(await accounts.addApiKey(req.params.account, body?.apiKey, req.requestId));
  };
}

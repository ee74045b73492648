import type { operations } from '@msg/contracts/internal/admin';
import type { RequestHandler } from 'express';
import type { Accounts } from '../accounts/accounts.js';

type Query = NonNullable<operations['listAccounts']['parameters']['query']>;

export function listAccounts(accounts: Accounts): RequestHandler<object, unknown, unknown, Query> {
  return async (req, res) => {
    // The validator has checked the query and applied the document's defaults.
    const { status, limit = 100, offset = 0 } = req.query;
    res.json(await accounts.list({ ...(status && { status }), limit, offset }));
  };
}

import type { RequestHandler } from 'express';
import type { DebitRequest, Debits } from '../accounts/debits.js';

/** POST /internal/v1/accounts/{accountId}/debits — the sending services' billing call. */
export function debitAccount(
  debits: Debits,
): RequestHandler<{ account: string }, unknown, { items: DebitRequest[] }> {
  return async (req, res) => {
    res.json(await debits.debit(req.params.account, req.body.items));
  };
}

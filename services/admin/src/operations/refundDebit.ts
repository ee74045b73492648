import type { RequestHandler } from 'express';
import type { Debits } from '../accounts/debits.js';

/** DELETE /internal/v1/accounts/{account}/debits/{reference} — a paid message was not accepted. */
export function refundDebit(
  debits: Debits,
): RequestHandler<{ account: string; reference: string }> {
  return async (req, res) => {
    res.json(await debits.refund(req.params.account, req.params.reference));
  };
}

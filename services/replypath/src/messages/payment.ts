import type { AccountState } from '@msg/contracts';
import { HttpError } from '@msg/http';
import { insufficientFundsMessage, type PrepaidBilling } from '@msg/sms-submit';

/**
 * A prepaid balance that does not cover the send (rule 5.3). 403 `INSUFFICIENT_FUNDS`: the status
 * table of 7.2 has no 402, and 403 is its refusal that other credentials would not fix. The
 * internal API answers the same; the legacy service turns it into its 401 "prepaid account
 * without funds" (spec 7.3).
 */
export class FundsRefusedError extends HttpError {
  constructor(parts: number) {
    super(403, 'INSUFFICIENT_FUNDS', insufficientFundsMessage(parts));
  }
}

/** One message of a send to pay for: its TransactionId (the debit's reference) and parts. */
export interface Charge {
  reference: string;
  parts: number;
}

/**
 * Pays for every message of a send before anything is stored (prepaid accounts; postpaid: no
 * call), all or nothing: when the balance covers only some, those are given back and the send is
 * refused (FundsRefusedError for the parts of the whole request). Debits are keyed by the
 * TransactionId, so paying again for the same message costs nothing.
 */
export async function payForSend(
  billing: PrepaidBilling,
  account: AccountState,
  charges: readonly Charge[],
): Promise<void> {
  const paid = await billing.chargeInOrder(account, charges);
  if (paid.every(Boolean)) return;
  await refundSend(
    billing,
    account,
    charges.filter((_, i) => paid[i]),
  );
  throw new FundsRefusedError(charges.reduce((sum, c) => sum + c.parts, 0));
}

/** Gives back what a send paid when it was not accepted after all (best effort, never throws). */
export async function refundSend(
  billing: PrepaidBilling,
  account: AccountState,
  charges: readonly Charge[],
): Promise<void> {
  await Promise.all(charges.map((c) => billing.refund(account, c.reference)));
}

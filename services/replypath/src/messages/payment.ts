import { HttpError } from '@msg/http';
import { insufficientFundsMessage } from '@msg/sms-submit';

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

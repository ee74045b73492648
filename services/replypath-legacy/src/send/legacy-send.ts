import { type ErrorDetail, HttpError, ValidationError } from '@msg/http';
import type { ReplypathClient } from '../replypath/replypath-client.js';

/** How the request carried To and Msg: the three forms of spec 4.4. */
export type LegacyForm = 'query' | 'path' | 'body';

/** One entry of the answer (spec 2.4). */
export interface LegacyResult {
  DestinationAddress: string;
  TransactionId: string;
}

/** Where each field sits in each form, as a 400 names it (the path form's segments are lower case). */
const FIELD_LOC: Record<LegacyForm, Record<'To' | 'Msg', string[]>> = {
  query: { To: ['query', 'To'], Msg: ['query', 'Msg'] },
  path: { To: ['path', 'to'], Msg: ['path', 'msg'] },
  body: { To: ['body', 'To'], Msg: ['body', 'Msg'] },
};

function fieldOf(loc: string[]): 'To' | 'Msg' | undefined {
  const name = loc.at(-1)?.toLowerCase();
  return name === 'to' ? 'To' : name === 'msg' ? 'Msg' : undefined;
}

/** `body.To` / `body.Msg` as the reply-path service names them in its messages. */
const SERVICE_FIELD = /\bbody\.(To|Msg)\b/g;

/**
 * The reply-path service checked To and Msg as they arrived in its body; the caller of this
 * interface sent them in a query, a path or a body. Its message lists every problem as
 * `body.To: <rule>; body.Msg: <rule>` (its `details` carry only the first, spec 7.2), so the
 * message is rewritten to name each field where the caller put it, and so are the details —
 * for every 400 of it (VALIDATION_ERROR, RECIPIENT_OPTED_OUT), its code kept.
 */
function relocated(error: HttpError, form: LegacyForm): HttpError {
  const message = error.message.replace(SERVICE_FIELD, (_match, field: 'To' | 'Msg') =>
    FIELD_LOC[form][field].join('.'),
  );
  const details: ErrorDetail[] = error.details.map((detail) => {
    const field = fieldOf(detail.loc);
    return field ? { ...detail, loc: FIELD_LOC[form][field] } : detail;
  });
  return error instanceof ValidationError
    ? new ValidationError(message, details)
    : new HttpError(error.status, error.code, message, details);
}

/**
 * Sends one legacy request through the reply-path service (default VP, no DLR, not one-shot, as
 * the legacy interface has no such parameters) and answers its entries without the originator.
 */
export async function sendLegacy(
  client: ReplypathClient,
  request: { accountId: string; form: LegacyForm; To: string; Msg: string },
): Promise<LegacyResult[]> {
  const { accountId, form, To, Msg } = request;
  try {
    const sent = await client.send({ accountId, To, Msg });
    return sent.map(({ DestinationAddress, TransactionId }) => ({
      DestinationAddress,
      TransactionId,
    }));
  } catch (error) {
    throw error instanceof HttpError && error.status === 400 ? relocated(error, form) : error;
  }
}

import type { SmsEncoding } from '@msg/contracts';
import type { components } from '@msg/contracts/sms';
import { type ErrorDetail, ValidationError } from '@msg/http';
import { normalizeMsisdn } from '@msg/phone';
import { checkLength, checkSenderPermission, MAX_PARTS, type SenderRules } from '@msg/sms-text';

/** The sendSms body as the document types it (types, required fields and bounds already checked). */
export type SendSmsBody = components['schemas']['SendSmsRequest'];

/** A send request that passed every rule, ready to store and queue. */
export interface AcceptedSms {
  /** E.164 with +. */
  to: string;
  from: string;
  text: string;
  encoding: SmsEncoding;
  parts: number;
  callbackUrl?: string;
}

/**
 * Applies the rules JSON Schema cannot express (number normalising, the sender id's form and
 * whether the account may use it, parts in the text's encoding). Every broken rule is reported at
 * once, each naming its field and rule.
 */
export function checkSendRequest(body: SendSmsBody, senders: SenderRules): AcceptedSms {
  const details: ErrorDetail[] = [];
  const to = normalizeMsisdn(body.to);
  if (!to.ok) details.push({ loc: ['body', 'to'], type: to.reason, msg: to.message });
  const from = checkSenderPermission({ sender: body.from, ...senders });
  if (!from.ok) details.push({ loc: ['body', 'from'], type: from.reason, msg: from.message });
  const length = checkLength(body.message);
  if (!length.ok) {
    const msg =
      length.reason === 'empty'
        ? 'must not be empty'
        : `at most ${MAX_PARTS} parts: this text needs ${length.parts} (1530 GSM-7 or 670 UCS-2 characters fit)`;
    details.push({ loc: ['body', 'message'], type: length.reason, msg });
  }
  if (!to.ok || !from.ok || !length.ok || details.length > 0) {
    const message = details.map((d) => `${d.loc.join('.')}: ${d.msg}`).join('; ');
    throw new ValidationError(message, details);
  }
  return {
    to: to.e164,
    from: body.from,
    text: body.message,
    encoding: length.encoding,
    parts: length.parts,
    ...(body.callback_url !== undefined && { callbackUrl: body.callback_url }),
  };
}

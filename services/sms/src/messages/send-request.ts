import type { SmsEncoding } from '@msg/contracts';
import type { components } from '@msg/contracts/sms';
import { ValidationError } from '@msg/http';
import { checkSms, msisdnRule } from '@msg/sms-submit';
import type { SenderRules } from '@msg/sms-text';

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

const FIELDS = { to: ['body', 'to'], from: ['body', 'from'], text: ['body', 'message'] };
/** National numbers are read as Swedish (spec 4.3). */
const NUMBER = msisdnRule();

/**
 * Applies the rules JSON Schema cannot express (checkSms of @msg/sms-submit: the number, the
 * sender id's form and whether the account may use it, parts in the text's encoding). Every
 * broken rule is reported at once, each naming its field and rule.
 */
export function checkSendRequest(body: SendSmsBody, senders: SenderRules): AcceptedSms {
  const checked = checkSms(
    { to: [body.to], from: body.from, text: body.message },
    { fields: FIELDS, number: NUMBER, senders },
  );
  if (!checked.ok) throw ValidationError.of(checked.broken);
  const { sms } = checked;
  return {
    to: sms.to[0] as string,
    from: body.from,
    text: sms.text,
    encoding: sms.encoding,
    parts: sms.parts,
    ...(body.callback_url !== undefined && { callbackUrl: body.callback_url }),
  };
}

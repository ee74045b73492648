import type { SmsEncoding } from '@msg/contracts';
import type { components } from '@msg/contracts/replypath';
import { ValidationError } from '@msg/http';
import { checkSms, type NumberRule } from '@msg/sms-submit';
import { swedishNumber } from '../pool/swedish-number.js';

/** The sendSms body as the document types it (types, required fields and bounds already checked). */
export type SendSmsBody = components['schemas']['SendSmsRequest'];

/** Defaults of spec 2.3. */
const DEFAULT_VP_MINUTES = 4320;

/** A send request that passed every rule: one message per recipient, ready to allocate. */
export interface AcceptedSend {
  /** E.164 with +, in the order of `To`. */
  recipients: string[];
  text: string;
  encoding: SmsEncoding;
  parts: number;
  dlr: boolean;
  /** 0..4320; 0 = no reply window. */
  vpMinutes: number;
  oneShot: boolean;
}

const FIELDS = { to: ['body', 'To'], text: ['body', 'Msg'] };

/** Reply-path numbers: Swedish only (spec 8.2); an empty entry is two separators in a row. */
const swedishRule: NumberRule = (entry) => {
  const number = swedishNumber(entry);
  if (number.ok || number.type !== 'empty') return number;
  return { ...number, msg: 'empty (no digits between separators)' };
};

/**
 * Applies the rules JSON Schema cannot express (spec 2.3, 4.3, 8.2; checkSms of
 * @msg/sms-submit): recipients normalised and Swedish, the text within 10 parts in its encoding.
 * Every broken rule is reported at once, each naming its field and rule.
 */
export function checkSendRequest(body: SendSmsBody): AcceptedSend {
  const checked = checkSms(
    { to: body.To.split(/[,;]/), text: body.Msg },
    { fields: FIELDS, number: swedishRule },
  );
  if (!checked.ok) throw ValidationError.of(checked.broken);
  const { sms } = checked;
  return {
    recipients: sms.to,
    text: sms.text,
    encoding: sms.encoding,
    parts: sms.parts,
    dlr: body.DLR === 1,
    vpMinutes: body.VP ?? DEFAULT_VP_MINUTES,
    oneShot: body.OneShot === 1,
  };
}

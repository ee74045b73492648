import type { SmsEncoding } from '@msg/contracts';
import type { components } from '@msg/contracts/replypath';
import { type ErrorDetail, ValidationError } from '@msg/http';
import { checkLength, MAX_PARTS } from '@msg/sms-text';
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

function recipientsOf(to: string, details: ErrorDetail[]): string[] {
  const entries = to.split(/[,;]/);
  const recipients: string[] = [];
  for (const [i, entry] of entries.entries()) {
    const which = entries.length > 1 ? `recipient ${i + 1} of ${entries.length}: ` : '';
    const number = swedishNumber(entry);
    if (number.ok) recipients.push(number.e164);
    else {
      const msg = number.type === 'empty' ? 'empty (no digits between separators)' : number.msg;
      details.push({ loc: ['body', 'To'], type: number.type, msg: `${which}${msg}` });
    }
  }
  return recipients;
}

/**
 * Applies the rules JSON Schema cannot express (spec 2.3, 4.3, 8.2): recipients normalised and
 * Swedish, the text within 10 parts in its encoding. Every broken rule is reported at once,
 * each naming its field and rule.
 */
export function checkSendRequest(body: SendSmsBody): AcceptedSend {
  const details: ErrorDetail[] = [];
  const recipients = recipientsOf(body.To, details);
  const length = checkLength(body.Msg);
  if (!length.ok) {
    const msg =
      length.reason === 'empty'
        ? 'must not be empty'
        : `at most ${MAX_PARTS} SMS parts: this text needs ${length.parts} (1530 GSM-7 or 670 UCS-2 characters fit)`;
    details.push({ loc: ['body', 'Msg'], type: length.reason, msg });
  }
  if (!length.ok || details.length > 0) {
    throw new ValidationError(
      details.map((d) => `${d.loc.join('.')}: ${d.msg}`).join('; '),
      details,
    );
  }
  return {
    recipients,
    text: body.Msg,
    encoding: length.encoding,
    parts: length.parts,
    dlr: body.DLR === 1,
    vpMinutes: body.VP ?? DEFAULT_VP_MINUTES,
    oneShot: body.OneShot === 1,
  };
}

import { isStrictE164, normalizeMsisdn } from '@msg/phone';
import { checkLength, renderTemplate, type SmsEncoding, type TemplateFields } from '@msg/sms-text';

/** A recipient as it was stored at intake. */
export interface PendingRecipient {
  phoneNumber: string;
  /** field_message as stored (jsonb); null when the recipient had none. */
  fields: unknown;
}

export type PreparedMessage =
  | { ok: true; to: string; text: string; encoding: SmsEncoding; parts: number }
  | {
      ok: false;
      /** The number as stored: E.164 when it was valid, else as given. */
      to: string;
      /** The rendered text when rendering got that far, else null. */
      text: string | null;
      /** `invalid_phone_number`, `missing_field:<name>`, `too_long` or `empty_message`. */
      error: string;
    };

function isFields(value: unknown): value is TemplateFields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * One recipient of a batch turned into the SMS to send, or the reason it fails alone (the batch
 * goes on): a number that is not a valid E.164 number (with or without +, or 00; no national
 * numbers), a template placeholder without a value in the recipient's fields, a text of more than
 * 10 parts.
 */
export function prepareMessage(template: string, recipient: PendingRecipient): PreparedMessage {
  const number = normalizeMsisdn(recipient.phoneNumber, { defaultCountry: null });
  if (!number.ok || !isStrictE164(number.e164)) {
    return { ok: false, to: recipient.phoneNumber, text: null, error: 'invalid_phone_number' };
  }
  const to = number.e164;
  const rendered = renderTemplate(template, isFields(recipient.fields) ? recipient.fields : {});
  if (!rendered.ok) {
    return { ok: false, to, text: null, error: `missing_field:${rendered.missing[0]}` };
  }
  const length = checkLength(rendered.text);
  if (!length.ok) {
    const error = length.reason === 'too_many_parts' ? 'too_long' : 'empty_message';
    return { ok: false, to, text: rendered.text, error };
  }
  return { ok: true, to, text: rendered.text, encoding: length.encoding, parts: length.parts };
}

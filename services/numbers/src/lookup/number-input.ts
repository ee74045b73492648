import { isE164Digits } from '@msg/phone';
import parsePhoneNumber, { type PhoneNumber } from 'libphonenumber-js/max';

/** The number path segment, read as spec 4.7 says. */
export type NumberInput =
  | { kind: 'invalid'; input: string }
  /** Well formed, but the country code's ranges do not allocate it. */
  | { kind: 'unallocated'; digits: string; phone: PhoneNumber }
  | { kind: 'valid'; digits: string; phone: PhoneNumber };

/**
 * E.164 with or without `+`, or with the `00` prefix; spaces and dashes are ignored. A national
 * form (leading single 0), letters, a wrong length or an unassigned country code is invalid.
 * Possible (right length for the country) but outside every range of the metadata is
 * unallocated.
 */
export function readNumberInput(input: string): NumberInput {
  const compact = input.replace(/[\s-]/g, '');
  // The digits after `+` or `00` (or none) follow the platform's one E.164 rule (@msg/phone).
  const digits = /^(?:\+|00)?(\d+)$/.exec(compact)?.[1];
  if (!digits || !isE164Digits(digits) || (compact.startsWith('0') && !compact.startsWith('00'))) {
    return { kind: 'invalid', input };
  }
  let phone: PhoneNumber | undefined;
  try {
    phone = parsePhoneNumber(`+${digits}`);
  } catch {
    phone = undefined;
  }
  if (!phone || phone.number !== `+${digits}` || !phone.isPossible()) {
    return { kind: 'invalid', input };
  }
  return phone.isValid()
    ? { kind: 'valid', digits, phone }
    : { kind: 'unallocated', digits, phone };
}

/**
 * Strict E.164 as interfaces such as text-to-voice `to`/`sender` and RCS `recipient` demand it:
 * `+`, a first digit 1-9 (no country code starts with 0), at most 15 digits in all. Syntax only;
 * whether the number exists for its country is normalizeMsisdn's question.
 */
const STRICT_E164 = /^\+[1-9]\d{0,14}$/;

export function isStrictE164(value: string): boolean {
  return STRICT_E164.test(value);
}

/** The digits of an E.164 number without its `+`, as the legacy lookup paths and SMPP use them. */
export function e164Digits(e164: string): string {
  if (!isStrictE164(e164)) throw new RangeError('e164Digits expects a strict E.164 number');
  return e164.slice(1);
}

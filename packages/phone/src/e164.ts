/**
 * The platform's one rule for an E.164 number, used by every OpenAPI document and every check in
 * code: `+`, a first digit 1-9 (no country code starts with 0), then 6 to 14 more digits — 7 to
 * 15 digits in all, nothing else (no spaces).
 *
 * Why 7: E.164 sets only the maximum (15). libphonenumber's metadata has no mobile number shorter
 * than 7 digits with its country code (Niue, Tokelau: +683 / +690 and four digits), so no SMS or
 * RCS recipient is shorter; the only shorter numbers it knows are a few 6-digit Austrian fixed
 * lines, German pagers and Iranian service numbers, which no interface here sends to. RBM, the
 * opt-out topic and the legacy lookup already demanded 7 to 15; a shorter "number" such as `+46`
 * is a country code, not a number. `e164.test.ts` checks the bound against the metadata.
 *
 * Syntax only: whether the number exists in its country's plan is normalizeMsisdn's question.
 * This file imports nothing, so packages that must not load libphonenumber's metadata
 * (@msg/sms-text, @msg/rbm, @msg/contracts) take it from `@msg/phone/e164`.
 */
export const E164_MIN_DIGITS = 7;
export const E164_MAX_DIGITS = 15;

/** The rule as the OpenAPI documents write it (their `pattern`), and as a RegExp below. */
export const E164_PATTERN_SOURCE = '^\\+[1-9][0-9]{6,14}$';
export const E164_PATTERN = new RegExp(E164_PATTERN_SOURCE);

/** The same digits without the `+` (the legacy lookup's and SMPP's form). */
export const E164_DIGITS_PATTERN_SOURCE = '^[1-9][0-9]{6,14}$';
const E164_DIGITS = new RegExp(E164_DIGITS_PATTERN_SOURCE);

/** What a refusal says, the same words everywhere. */
export const E164_RULE =
  'an E.164 number: +, a first digit 1-9, then 6 to 14 more digits (7 to 15 in all)';

export function isStrictE164(value: string): boolean {
  return E164_PATTERN.test(value);
}

/** Whether `digits` are an E.164 number written without its `+`. */
export function isE164Digits(digits: string): boolean {
  return E164_DIGITS.test(digits);
}

/** The digits of an E.164 number without its `+`, as the legacy lookup paths and SMPP use them. */
export function e164Digits(e164: string): string {
  if (!isStrictE164(e164)) throw new RangeError('e164Digits expects a strict E.164 number');
  return e164.slice(1);
}

import {
  type CountryCode,
  type NumberType,
  parsePhoneNumberFromString,
  validatePhoneNumberLength,
} from 'libphonenumber-js/max';
import { E164_MAX_DIGITS, E164_MIN_DIGITS, isStrictE164 } from './e164.js';

/**
 * The 'max' metadata is used because only it tells mobile from fixed-line numbers and knows
 * every allocated range; the smaller builds check lengths only.
 */

export type MsisdnType = NonNullable<NumberType> | 'UNKNOWN';

export type MsisdnFailure =
  /** nothing but separators, or a prefix with no digits after it */
  | 'empty'
  /** letters or symbols other than the ignored separators, or a + not in front */
  | 'characters'
  /** fewer digits than any number of the country has, or than the platform's E.164 rule (7) */
  | 'too_short'
  /** more than 15 digits, or more than any number of the country has */
  | 'too_long'
  /** unassigned country code, or a national number when no default country applies */
  | 'invalid_country'
  /** plausible length, but no prefix and length of the country's numbering plan match */
  | 'invalid';

export type NormalizedMsisdn =
  | {
      ok: true;
      /** `+` and digits, e.g. +46701234567. */
      e164: string;
      /** ISO 3166 country, or null for numbers of no country (e.g. +800 international freephone). */
      country: CountryCode | null;
      countryCallingCode: string;
      type: MsisdnType;
    }
  | { ok: false; reason: MsisdnFailure; message: string };

export interface NormalizeOptions {
  /**
   * Country assumed for a national number (one leading 0, as in 0701234567). null refuses
   * national numbers, as interfaces that require a country code do (spec 4.7).
   */
  defaultCountry?: CountryCode | null;
}

// Separators people write inside numbers; they carry no meaning and are dropped. \p{Pd} covers
// the en dash and other dashes that word processors substitute for the hyphen; / is the German
// area-code separator (030/1234567).
const SEPARATORS = /[\s.()/\p{Pd}]/gu;

/**
 * Accepts the forms the interfaces allow: international with `+` or `00`, digits with the
 * country code but no prefix, and a national number with a leading 0 for defaultCountry
 * (Sweden unless told otherwise). Spaces, dashes, dots, slashes and parentheses are ignored;
 * anything else is refused rather than silently dropped, so "070-123abc" is not taken for 070123.
 *
 * defaultCountry applies only to a leading 0 (the trunk prefix): digits without any prefix are
 * read as international, because the number intelligence path (spec 4.7) and the legacy lookup
 * (4.8) send E.164 digits without the +.
 */
export function normalizeMsisdn(input: string, options: NormalizeOptions = {}): NormalizedMsisdn {
  const { defaultCountry = 'SE' } = options;
  const compact = input.trim().replace(SEPARATORS, '');
  if (compact === '' || compact === '+') return fail('empty', 'no number given');
  if (!/^\+?\d+$/.test(compact)) {
    return fail(
      'characters',
      'only digits, a leading + and the separators space - . / ( ) are allowed',
    );
  }

  if (compact.startsWith('+')) return international(compact.slice(1));
  if (compact.startsWith('00')) return international(compact.slice(2));
  if (compact.startsWith('0')) return national(compact, defaultCountry);
  return international(compact);
}

function international(digits: string): NormalizedMsisdn {
  if (digits === '') return fail('empty', 'no digits after the international prefix');
  if (digits.startsWith('0')) return fail('invalid_country', 'a country code never starts with 0');
  if (digits.length > E164_MAX_DIGITS) {
    return fail('too_long', `an international number has at most ${E164_MAX_DIGITS} digits`);
  }
  return checked(`+${digits}`, undefined);
}

function national(digits: string, country: CountryCode | null): NormalizedMsisdn {
  if (country === null) {
    return fail('invalid_country', 'a national number needs a country code (+ or 00 prefix)');
  }
  return checked(digits, country);
}

function checked(text: string, country: CountryCode | undefined): NormalizedMsisdn {
  const lengthProblem = validatePhoneNumberLength(text, country);
  switch (lengthProblem) {
    case undefined:
      break;
    case 'INVALID_COUNTRY':
      return fail('invalid_country', 'the country code is not assigned');
    case 'TOO_SHORT':
      return fail('too_short', 'too few digits for a number of its country');
    case 'TOO_LONG':
      return fail('too_long', 'too many digits for a number of its country');
    default:
      // INVALID_LENGTH: between the shortest and longest lengths of the country, yet a length
      // no number there has.
      return fail('invalid', 'no number of its country has this length');
  }

  const phone = parsePhoneNumberFromString(text, country);
  if (!phone) return fail('invalid', 'not a phone number');
  // isValid checks the country's numbering plan (prefix and length together), so a Swedish
  // mobile with one digit too many ends up here, not as too_long: 13-digit numbers exist there.
  if (!phone.isValid())
    return fail('invalid', "not a valid number in its country's numbering plan");
  // The platform's one E.164 rule (e164.ts): the few valid numbers under 7 digits (Austrian fixed
  // lines, German pagers) are not numbers any interface here sends to.
  if (!isStrictE164(phone.number)) {
    return fail('too_short', `an E.164 number has at least ${E164_MIN_DIGITS} digits`);
  }
  return {
    ok: true,
    e164: phone.number,
    country: phone.country ?? null,
    countryCallingCode: phone.countryCallingCode,
    type: phone.getType() ?? 'UNKNOWN',
  };
}

function fail(reason: MsisdnFailure, message: string): NormalizedMsisdn {
  return { ok: false, reason, message };
}

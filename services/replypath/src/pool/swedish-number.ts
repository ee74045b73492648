import { normalizeMsisdn } from '@msg/phone';

export type SwedishNumber =
  | { ok: true; e164: string }
  | { ok: false; type: 'empty' | 'invalid_number' | 'not_swedish'; msg: string };

/**
 * A number as reply-path takes it (spec 4.3): international with `+` or `00`, or national with
 * a leading `0` (Swedish); every character that is not a digit is removed (a leading `+` is
 * kept); then it must be a valid number of Sweden (country code 46) — reply-path works only
 * there (8.2). Used for recipients and for the numbers of the pool.
 */
export function swedishNumber(raw: string): SwedishNumber {
  const trimmed = raw.trim();
  const digits = trimmed.replace(/\D/g, '');
  if (digits === '') return { ok: false, type: 'empty', msg: 'no digits in the number' };
  const cleaned = trimmed.startsWith('+') ? `+${digits}` : digits;
  const international = cleaned.startsWith('+')
    ? digits
    : digits.startsWith('00')
      ? digits.slice(2)
      : undefined;
  const notSwedish = {
    ok: false as const,
    type: 'not_swedish' as const,
    msg: 'must be a Swedish number (country code 46): reply-path works only in Sweden',
  };
  if (international !== undefined && !international.startsWith('46')) return notSwedish;
  const parsed = normalizeMsisdn(cleaned, { defaultCountry: 'SE' });
  if (!parsed.ok) {
    return { ok: false, type: 'invalid_number', msg: `not a valid number: ${parsed.message}` };
  }
  if (parsed.country !== 'SE') return notSwedish;
  return { ok: true, e164: parsed.e164 };
}

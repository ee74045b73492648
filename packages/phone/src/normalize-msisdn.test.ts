import { describe, expect, it } from 'vitest';
import { normalizeMsisdn } from './normalize-msisdn.js';

const SWEDISH_MOBILE = {
  ok: true,
  e164: '+46701234567',
  country: 'SE',
  countryCallingCode: '46',
  type: 'MOBILE',
};

describe('normalizeMsisdn: reply-path recipients (spec 4.3)', () => {
  it.each([
    ['international with +', '+46701234567'],
    ['international with 00', '0046701234567'],
    ['Swedish national with 0', '0701234567'],
    ['national with spaces', '070 123 45 67'],
    ['national with dash', '070-123 45 67'],
    ['national with dots and parentheses', '(070) 123.45.67'],
    ['international with dashes', '+46-70-123-45-67'],
    ['00 with spaces', '0046 70 123 45 67'],
    ['surrounding whitespace', '  +46701234567\t'],
    ['en dash from a word processor', '070–123 45 67'],
    ['slash', '070/1234567'],
    ['trunk 0 in parentheses after the country code', '+46 (0)70 123 45 67'],
  ])('when given %s, then it is +46701234567', (_label, input) => {
    expect(normalizeMsisdn(input)).toEqual(SWEDISH_MOBILE);
  });

  it.each([
    ['letters', '070-123abcd'],
    ['a + in the middle', '46+701234567'],
    ['two pluses', '++46701234567'],
    ['a comma list', '+46701234567,+46701234568'],
    ['a hash', '#0701234567'],
  ])('when given %s, then it is refused for its characters', (_label, input) => {
    expect(normalizeMsisdn(input)).toMatchObject({ ok: false, reason: 'characters' });
  });

  it.each(['', '   ', '+', '- ( )'])('when given "%s", then it is refused as empty', (input) => {
    expect(normalizeMsisdn(input)).toMatchObject({ ok: false, reason: 'empty' });
  });

  it('when given 00 alone, then it is refused as empty', () => {
    expect(normalizeMsisdn('00')).toMatchObject({ ok: false, reason: 'empty' });
  });
});

describe('normalizeMsisdn: number intelligence path forms (spec 4.7)', () => {
  const strict = { defaultCountry: null };

  it.each([
    ['with +', '+46701234567'],
    ['without +', '46701234567'],
    ['with 00', '0046701234567'],
    ['with spaces', '46 70 123 45 67'],
    ['with dashes', '46-70-123-45-67'],
    ['with + spaces and dashes', '+46 70-123 45 67'],
  ])('when the number is %s, then it parses to the same E.164', (_label, input) => {
    expect(normalizeMsisdn(input, strict)).toEqual(SWEDISH_MOBILE);
  });

  it('when the number is in national format, then it is refused for lack of a country', () => {
    expect(normalizeMsisdn('0701234567', strict)).toEqual({
      ok: false,
      reason: 'invalid_country',
      message: 'a national number needs a country code (+ or 00 prefix)',
    });
  });

  it.each([
    ['unassigned country code 999', '+999123456789'],
    ['country code starting with 0', '+0701234567'],
  ])('when the number has an %s, then the country is invalid', (_label, input) => {
    expect(normalizeMsisdn(input, strict)).toMatchObject({ ok: false, reason: 'invalid_country' });
  });

  it.each([
    ['too short for Sweden', '+4670123', 'too_short'],
    ['only a country code', '0046', 'too_short'],
    ['a valid Austrian fixed line of 6 digits, under the E.164 rule', '+431110', 'too_short'],
    ['more than 15 digits', '+4670123456789012', 'too_long'],
    ['longer than any Norwegian number', '+4791234567890', 'too_long'],
    ['a Swedish mobile with one digit missing', '+4670123456', 'invalid'],
    ['a Swedish mobile with one digit extra', '+467012345678', 'invalid'],
  ])('when the number is %s, then it is refused as %s', (_label, input, reason) => {
    expect(normalizeMsisdn(input, strict)).toMatchObject({ ok: false, reason });
  });

  it('when refused, then a human message says why', () => {
    const result = normalizeMsisdn('+4670123', strict);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(/too few digits/);
  });
});

describe('normalizeMsisdn: number type (max metadata)', () => {
  it.each([
    ['Swedish mobile 070', '+46701234567', 'MOBILE'],
    ['Swedish mobile 076', '+46761234567', 'MOBILE'],
    ['Swedish mobile 079', '+46791234567', 'MOBILE'],
    ['Stockholm fixed line 08', '+46812345678', 'FIXED_LINE'],
    ['Gothenburg fixed line 031', '+46311234567', 'FIXED_LINE'],
    ['Malmö fixed line 040', '+4640123456', 'FIXED_LINE'],
    ['Swedish freephone 020', '+46201234567', 'TOLL_FREE'],
    ['Swedish premium rate 0900', '+46900123456', 'PREMIUM_RATE'],
  ])('when the number is a %s, then its type is %s', (_label, input, type) => {
    expect(normalizeMsisdn(input)).toMatchObject({ ok: true, country: 'SE', type });
  });

  it('when a Swedish national fixed-line number is given, then it is fixed line, not mobile', () => {
    expect(normalizeMsisdn('08-123 456 78')).toMatchObject({
      ok: true,
      e164: '+46812345678',
      type: 'FIXED_LINE',
    });
  });
});

describe('normalizeMsisdn: other countries', () => {
  it.each([
    ['Norwegian mobile', '+47 912 34 567', '+4791234567', 'NO', 'MOBILE'],
    ['Norwegian fixed line', '+47 22 12 34 56', '+4722123456', 'NO', 'FIXED_LINE'],
    ['Finnish mobile', '00358 40 1234567', '+358401234567', 'FI', 'MOBILE'],
    ['German mobile', '+49 151 23456789', '+4915123456789', 'DE', 'MOBILE'],
    ['UK mobile', '+44 7400 123456', '+447400123456', 'GB', 'MOBILE'],
    [
      'US number (ranges shared by mobile and fixed)',
      '+1 (201) 555-0123',
      '+12015550123',
      'US',
      'FIXED_LINE_OR_MOBILE',
    ],
  ])(
    'when given a %s, then country and type are recognised',
    (_label, input, e164, country, type) => {
      expect(normalizeMsisdn(input)).toMatchObject({ ok: true, e164, country, type });
    },
  );

  it('when a national number is given with another default country, then that country is used', () => {
    expect(normalizeMsisdn('020 7946 0958', { defaultCountry: 'GB' })).toMatchObject({
      ok: true,
      e164: '+442079460958',
      country: 'GB',
      type: 'FIXED_LINE',
    });
  });

  it('when the number belongs to no country, then country is null', () => {
    expect(normalizeMsisdn('+800 1234 5678')).toMatchObject({
      ok: true,
      e164: '+80012345678',
      country: null,
      countryCallingCode: '800',
      type: 'TOLL_FREE',
    });
  });
});

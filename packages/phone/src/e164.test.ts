import {
  getCountries,
  getCountryCallingCode,
  parsePhoneNumberFromString,
  validatePhoneNumberLength,
} from 'libphonenumber-js/max';
import { describe, expect, it } from 'vitest';
import { E164_MIN_DIGITS, e164Digits, isE164Digits, isStrictE164 } from './e164.js';

describe('isStrictE164', () => {
  it.each(['+46701234567', '+6907290', '+123456789012345'])(
    'when given %s, then it is strict E.164',
    (value) => {
      expect(isStrictE164(value)).toBe(true);
    },
  );

  it.each([
    ['no plus', '46701234567'],
    ['00 prefix', '0046701234567'],
    ['first digit 0', '+0701234567'],
    ['16 digits', '+1234567890123456'],
    ['a country code alone (issue 23)', '+46'],
    ['3 digits (issue 23)', '+999'],
    ['5 digits (issue 23)', '+46701'],
    ['6 digits', '+123456'],
    ['one digit', '+1'],
    ['spaces', '+46 70 123 45 67'],
    ['dash', '+46-701234567'],
    ['letters', '+46ABC'],
    ['plus only', '+'],
    ['empty', ''],
    ['trailing newline', '+46701234567\n'],
    ['Arabic-Indic digits', '+٤٦٧٠١٢٣٤٥٦٧'],
  ])('when given %s, then it is not strict E.164', (_label, value) => {
    expect(isStrictE164(value)).toBe(false);
  });
});

describe('the minimum of 7 digits, against libphonenumber metadata', () => {
  it('when every number shorter than 7 digits is tried, then none is a mobile number', () => {
    // The numbering plans whose shortest possible number has fewer than 7 digits with the
    // country code (Austria, Germany, Iran today): every number of those lengths is tried.
    const shortPlans = getCountries().flatMap((country) => {
      const code = getCountryCallingCode(country);
      let national = 1;
      while (validatePhoneNumberLength(`+${code}${'5'.repeat(national)}`) === 'TOO_SHORT') {
        national += 1;
      }
      return code.length + national < E164_MIN_DIGITS ? [{ code, national }] : [];
    });
    const reachable: string[] = [];
    for (const { code, national } of shortPlans) {
      for (let length = national; code.length + length < E164_MIN_DIGITS; length += 1) {
        for (let n = 0; n < 10 ** length; n += 1) {
          const number = `+${code}${String(n).padStart(length, '0')}`;
          const phone = parsePhoneNumberFromString(number);
          const type = phone?.isValid() ? phone.getType() : undefined;
          if (type === 'MOBILE' || type === 'FIXED_LINE_OR_MOBILE') reachable.push(number);
        }
      }
    }
    expect(reachable).toEqual([]);
  });

  it('when a Tokelau mobile of 7 digits is checked, then it is valid and strict E.164: the bound is tight', () => {
    const phone = parsePhoneNumberFromString('+6907290');
    expect(phone?.isValid()).toBe(true);
    expect(phone?.getType()).toBe('MOBILE');
    expect(isStrictE164('+6907290')).toBe(true);
  });
});

describe('isE164Digits', () => {
  it('when given the digits of a number without +, then they follow the same rule', () => {
    expect(isE164Digits('46701234567')).toBe(true);
    expect(isE164Digits('46701')).toBe(false);
    expect(isE164Digits('+46701234567')).toBe(false);
  });
});

describe('e164Digits', () => {
  it('when given an E.164 number, then the digits without + are returned', () => {
    expect(e164Digits('+46701234567')).toBe('46701234567');
  });

  it('when given something else, then it throws instead of guessing', () => {
    expect(() => e164Digits('0701234567')).toThrow(RangeError);
    expect(() => e164Digits('+46701')).toThrow(RangeError);
  });
});

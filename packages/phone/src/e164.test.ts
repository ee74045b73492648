import { describe, expect, it } from 'vitest';
import { e164Digits, isStrictE164 } from './e164.js';

describe('isStrictE164', () => {
  it.each(['+46701234567', '+1', '+123456789012345'])(
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
    ['spaces', '+46 70 123 45 67'],
    ['dash', '+46-701234567'],
    ['letters', '+46ABC'],
    ['plus only', '+'],
    ['empty', ''],
    ['trailing newline', '+46701234567\n'],
  ])('when given %s, then it is not strict E.164', (_label, value) => {
    expect(isStrictE164(value)).toBe(false);
  });
});

describe('e164Digits', () => {
  it('when given an E.164 number, then the digits without + are returned', () => {
    expect(e164Digits('+46701234567')).toBe('46701234567');
  });

  it('when given something else, then it throws instead of guessing', () => {
    expect(() => e164Digits('0701234567')).toThrow(RangeError);
  });
});

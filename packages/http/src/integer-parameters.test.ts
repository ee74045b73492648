import { describe, expect, it } from 'vitest';
import { isDecimalInteger } from './integer-parameters.js';

describe('isDecimalInteger', () => {
  it.each(['0', '7', '-1', '007', '9007199254740991', '-9007199254740991'])(
    'when the value is %s, then it is a decimal integer',
    (raw) => {
      expect(isDecimalInteger(raw)).toBe(true);
    },
  );

  it.each([
    ['empty', ''],
    ['hex', '0x10'],
    ['binary', '0b11'],
    ['octal', '0o7'],
    ['an exponent', '1e3'],
    ['Infinity', 'Infinity'],
    ['a 310-digit number', '9'.repeat(310)],
    ['beyond MAX_SAFE_INTEGER', '9007199254740992'],
    ['a plus sign', '+1'],
    ['a fraction', '1.0'],
    ['surrounding space', ' 1'],
    ['a trailing newline', '1\n'],
    ['a lone minus', '-'],
    ['full-width digits', '１２'],
  ])('when the value is %s, then it is not', (_case, raw) => {
    expect(isDecimalInteger(raw)).toBe(false);
  });
});

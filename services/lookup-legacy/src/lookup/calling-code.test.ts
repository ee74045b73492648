import { describe, expect, it } from 'vitest';
import { callingCodeOf } from './calling-code.js';

describe('callingCodeOf', () => {
  it.each([
    ['46701234567', '46'],
    ['4612345678', '46'],
    ['4740012345', '47'],
    ['3584012345', '358'],
    ['12025550123', '1'],
    ['8001234567', '800'],
  ])('when the digits are %s, then the calling code is %s', (digits, code) => {
    expect(callingCodeOf(digits)).toBe(code);
  });

  it('when no assigned calling code starts the digits, then undefined', () => {
    expect(callingCodeOf('9991234567')).toBeUndefined();
  });
});

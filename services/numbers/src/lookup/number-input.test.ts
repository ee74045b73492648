import { describe, expect, it } from 'vitest';
import { readNumberInput } from './number-input.js';

describe('readNumberInput', () => {
  it.each([
    '+46701234567',
    '46701234567',
    '0046701234567',
    '+46 70-123 45 67',
    '00 46 70 123 45 67',
  ])('when given %j, then it reads 46701234567', (input) => {
    expect(readNumberInput(input)).toMatchObject({ kind: 'valid', digits: '46701234567' });
  });

  it.each([
    '0701234567',
    '070-123 45 67',
    '+46(70)1234567',
    '+4670',
    '+431110', // a valid Austrian fixed line, but under the E.164 rule's 7 digits
    '+4670123456789012',
    '+99912345678',
    '',
    '+',
    '0',
  ])('when given %j, then it is invalid and keeps the input as received', (input) => {
    expect(readNumberInput(input)).toEqual({ kind: 'invalid', input });
  });

  it('when a number has the right length but lies in no range, then it is unallocated', () => {
    expect(readNumberInput('46711234567')).toMatchObject({ kind: 'unallocated' });
  });
});

import { describe, expect, it } from 'vitest';
import { swedishNumber } from './swedish-number.js';

describe('swedishNumber (spec 4.3, 8.2)', () => {
  it.each([
    ['+46701740605', '+46701740605'],
    ['0046701740605', '+46701740605'],
    ['0701740605', '+46701740605'],
    ['070-174 06 05', '+46701740605'],
    ['+46 (70) 174.06.05', '+46701740605'],
    ['070abc1740605', '+46701740605'],
    ['08123456', '+468123456'],
  ])('when given %s, then it is %s', (raw, e164) => {
    expect(swedishNumber(raw)).toEqual({ ok: true, e164 });
  });

  it.each([
    ['+4791234567', 'not_swedish'],
    ['004791234567', 'not_swedish'],
    ['+1 202 555 0143', 'not_swedish'],
    ['0100000000', 'invalid_number'],
    ['+4600000000', 'invalid_number'],
    ['070174060', 'invalid_number'],
    ['abc', 'empty'],
    ['   ', 'empty'],
  ])('when given %s, then it is refused as %s', (raw, type) => {
    expect(swedishNumber(raw)).toMatchObject({ ok: false, type });
  });
});

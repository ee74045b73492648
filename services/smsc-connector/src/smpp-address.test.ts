import { describe, expect, it } from 'vitest';
import { fromSmppAddress, toSmppAddress } from './smpp-address.js';
import { relativeValidity } from './validity-period.js';

describe('toSmppAddress', () => {
  it('when the address is +E.164, alphanumeric or a shortcode, then TON/NPI are 1/1, 5/0 or 3/0', () => {
    expect(toSmppAddress('+46701234567')).toEqual({ ton: 1, npi: 1, addr: '46701234567' });
    expect(toSmppAddress('Acme')).toEqual({ ton: 5, npi: 0, addr: 'Acme' });
    expect(toSmppAddress('72456')).toEqual({ ton: 3, npi: 0, addr: '72456' });
  });

  it('when an inbound address is international, then it gets its plus back', () => {
    expect(fromSmppAddress(1, '46701234567')).toBe('+46701234567');
    expect(fromSmppAddress(3, '72456')).toBe('72456');
  });
});

describe('relativeValidity', () => {
  it('when a validity is given in minutes, then it becomes SMPP relative time', () => {
    expect(relativeValidity(90)).toBe('000000013000000R');
    expect(relativeValidity(2 * 1440 + 5)).toBe('000002000500000R');
  });
});

import { describe, expect, it } from 'vitest';
import { fromSmppAddress, SmppAddressError, toSmppAddress } from './smpp-address.js';
import { relativeValidity } from './validity-period.js';

describe('toSmppAddress', () => {
  it('when the address is +E.164, alphanumeric or a shortcode, then TON/NPI are 1/1, 5/0 or 3/0', () => {
    expect(toSmppAddress('+46701234567')).toEqual({
      ton: 1,
      npi: 1,
      addr: Buffer.from('46701234567'),
    });
    expect(toSmppAddress('Acme')).toEqual({ ton: 5, npi: 0, addr: Buffer.from('Acme') });
    expect(toSmppAddress('72456')).toEqual({ ton: 3, npi: 0, addr: Buffer.from('72456') });
  });

  it('when an alphanumeric sender has å ä ö æ ø, then source_addr holds their GSM-7 septets, not Latin-1', () => {
    // GSM 03.38: Å 0E, å 0F, Ä 5B, ä 7B, Ö 5C, ö 7C, Æ 1C, æ 1D, Ø 0B, ø 0C.
    expect(toSmppAddress('Åsa').addr.toString('hex')).toBe('0e7361');
    expect(toSmppAddress('åäöÄÖæøÆØ').addr.toString('hex')).toBe('0f7b7c5b5c1d0c1c0b');
    expect(toSmppAddress('A_B&C-D. E').addr.toString('hex')).toBe('41114226432d442e2045');
  });

  it('when an alphanumeric sender cannot be a GSM-7 C-octet string, then it is refused by name', () => {
    expect(() => toSmppAddress('Café ç')).toThrow(SmppAddressError);
    // '@' is septet 0, which would end the field early.
    expect(() => toSmppAddress('a@b')).toThrow(SmppAddressError);
  });
});

describe('fromSmppAddress', () => {
  it('when an inbound address is international, then it gets its plus back', () => {
    expect(fromSmppAddress({ ton: 1, octets: Buffer.from('46701234567') })).toBe('+46701234567');
    expect(fromSmppAddress({ ton: 3, octets: Buffer.from('72456') })).toBe('72456');
  });

  it('when an inbound address is alphanumeric, then its octets are read as GSM-7', () => {
    expect(fromSmppAddress({ ton: 5, octets: Buffer.from('0e7361', 'hex') })).toBe('Åsa');
    expect(fromSmppAddress({ ton: 5, octets: toSmppAddress('Bjørn Ödå').addr })).toBe('Bjørn Ödå');
  });

  it('when an alphanumeric address has octets above 0x7F, then it is read as Latin-1 (no septet is that high)', () => {
    expect(fromSmppAddress({ ton: 5, octets: Buffer.from('Åsa', 'latin1') })).toBe('Åsa');
  });
});

describe('relativeValidity', () => {
  it('when a validity is given in minutes, then it becomes SMPP relative time', () => {
    expect(relativeValidity(90)).toBe('000000013000000R');
    expect(relativeValidity(2 * 1440 + 5)).toBe('000002000500000R');
  });
});

import { describe, expect, it } from 'vitest';
import { encodeGsm7 } from './gsm7-codec.js';
import { decodeSmppPayload, MalformedUdhError, UnsupportedDataCodingError } from './smpp-decode.js';
import { encodeUcs2 } from './ucs2-codec.js';

describe('decodeSmppPayload', () => {
  it('when data_coding is 0, then the payload is read as unpacked GSM-7', () => {
    expect(
      decodeSmppPayload({ dataCoding: 0, esmClass: 0, payload: encodeGsm7('Hej på dig €5') }),
    ).toEqual({
      text: 'Hej på dig €5',
    });
  });

  it('when data_coding is 3, then the payload is read as Latin-1', () => {
    expect(
      decodeSmppPayload({
        dataCoding: 3,
        esmClass: 0,
        payload: Buffer.from('Hej på dig', 'latin1'),
      }),
    ).toEqual({ text: 'Hej på dig' });
  });

  it('when data_coding is 8, then the payload is read as UCS-2 with emoji intact', () => {
    expect(
      decodeSmppPayload({ dataCoding: 8, esmClass: 0, payload: encodeUcs2('Привет 😀') }),
    ).toEqual({
      text: 'Привет 😀',
    });
  });

  it('when esm_class has UDHI, then the UDH is stripped, returned and its concat info read', () => {
    const udh = Buffer.from('0500031f0302', 'hex');
    const result = decodeSmppPayload({
      dataCoding: 0,
      esmClass: 0x43,
      payload: Buffer.concat([udh, encodeGsm7('tail')]),
    });
    expect(result).toEqual({
      text: 'tail',
      udh,
      concat: { reference: 0x1f, total: 3, sequence: 2 },
    });
  });

  it('when the UDH has a 16-bit reference after another element, then its concat info is read', () => {
    // IE 0x0a (text formatting, 3 octets) then IE 0x08 (concat, 16-bit ref 0x1234, 2 of 4).
    const udh = Buffer.from('0b0a03000000080412340402', 'hex');
    const result = decodeSmppPayload({
      dataCoding: 8,
      esmClass: 0x40,
      payload: Buffer.concat([udh, encodeUcs2('ж')]),
    });
    expect(result).toMatchObject({
      text: 'ж',
      concat: { reference: 0x1234, total: 4, sequence: 2 },
    });
  });

  it('when esm_class lacks UDHI, then a leading 0x05 is text, not a header', () => {
    expect(
      decodeSmppPayload({ dataCoding: 3, esmClass: 0, payload: Buffer.from([0x05, 0x41]) }).text,
    ).toBe('\u0005A');
  });

  it('when the UDH length runs past the payload, then it throws', () => {
    expect(() =>
      decodeSmppPayload({ dataCoding: 0, esmClass: 0x40, payload: Buffer.from([0x09, 0x00]) }),
    ).toThrow(MalformedUdhError);
  });

  it('when data_coding is binary (4), then it throws naming the coding', () => {
    expect(() =>
      decodeSmppPayload({ dataCoding: 4, esmClass: 0, payload: Buffer.from([1]) }),
    ).toThrow(UnsupportedDataCodingError);
  });
});

import { describe, expect, it } from 'vitest';
import { GSM7_BASIC, GSM7_EXTENSION } from './gsm7-alphabet.js';
import { decodeGsm7, encodeGsm7, NotGsm7Error } from './gsm7-codec.js';

describe('encodeGsm7', () => {
  it('when the text is basic GSM characters, then each becomes its own septet in one octet', () => {
    expect([...encodeGsm7('@A£\n')]).toEqual([0x00, 0x41, 0x01, 0x0a]);
    // 'å' is 0x0F in the GSM table, not its Latin-1 0xE5.
    expect(encodeGsm7('Hej på dig').toString('hex')).toBe('48656a20700f20646967');
  });

  it.each([
    ['€', 0x65],
    ['[', 0x3c],
    [']', 0x3e],
    ['{', 0x28],
    ['}', 0x29],
    ['^', 0x14],
    ['~', 0x3d],
    ['|', 0x40],
    ['\\', 0x2f],
    ['\f', 0x0a],
  ])('when the text has %j, then it is encoded as the escape pair 1B %s', (char, code) => {
    expect([...encodeGsm7(`a${char}b`)]).toEqual([0x61, 0x1b, code, 0x62]);
  });

  it('when a character is outside the alphabet, then it throws naming that character', () => {
    const error = (() => {
      try {
        encodeGsm7('ok ç');
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(NotGsm7Error);
    expect(error).toMatchObject({ character: 'ç', index: 3 });
    expect(() => encodeGsm7('😀')).toThrow(NotGsm7Error);
  });
});

describe('decodeGsm7', () => {
  it('when every character of both tables is encoded and decoded, then the text comes back', () => {
    const all = [...GSM7_BASIC.keys(), ...GSM7_EXTENSION.keys()].join('');
    expect(encodeGsm7(all)).toHaveLength(GSM7_BASIC.size + 2 * GSM7_EXTENSION.size);
    expect(decodeGsm7(encodeGsm7(all))).toBe(all);
  });

  it('when an escape is followed by a code the extension table lacks, then the basic character shows', () => {
    expect(decodeGsm7(Buffer.from([0x1b, 0x41]))).toBe('A');
  });

  it('when the octets end in an escape or hold a non-septet, then it decodes the rest leniently', () => {
    expect(decodeGsm7(Buffer.from([0x41, 0x1b]))).toBe('A');
    expect(decodeGsm7(Buffer.from([0x41, 0x80]))).toBe('A\ufffd');
  });
});

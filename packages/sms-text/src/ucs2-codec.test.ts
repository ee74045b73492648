import { describe, expect, it } from 'vitest';
import { decodeUcs2, encodeUcs2 } from './ucs2-codec.js';

describe('encodeUcs2 and decodeUcs2', () => {
  it('when text is encoded, then it is UTF-16 big-endian', () => {
    expect(encodeUcs2('Aж€').toString('hex')).toBe('0041043620ac');
  });

  it('when the text has an emoji, then its surrogate pair is kept whole, high half first', () => {
    expect(encodeUcs2('😀').toString('hex')).toBe('d83dde00');
  });

  it('when encoded text is decoded, then it comes back unchanged', () => {
    const text = 'Привет 😀 中文 €[]ç';
    expect(decodeUcs2(encodeUcs2(text))).toBe(text);
  });

  it('when the octets have an odd length, then the truncated unit is dropped', () => {
    expect(decodeUcs2(Buffer.from([0x00, 0x41, 0x00]))).toBe('A');
  });
});

import { describe, expect, it } from 'vitest';
import { detectEncoding } from './encoding.js';

describe('detectEncoding', () => {
  it.each([
    ['plain ASCII letters and digits', 'Hello 123'],
    ['Swedish letters', 'Hej på dig, Åsa! Öl och ärter.'],
    ['Danish and Norwegian letters', 'Ærø, Ødegård, blåbær'],
    ['German letters', 'Grüße aus Köln, Straße'],
    ['the symbols of the basic table', '@£$¥¤§¡¿!"#%&\'()*+,-./:;<=>?_'],
    ['the Greek capitals of the basic table', 'ΔΦΓΛΩΠΨΣΘΞ'],
    ['accented letters of the basic table', 'èéùìòÇÉÑÜñüàÄÖ'],
    ['line feed and carriage return', 'a\r\nb\nc'],
    ['every extension character', '€[]{}^~|\\\f'],
    ['empty text', ''],
  ])('when the text has %s, then it is GSM-7', (_label, text) => {
    expect(detectEncoding(text)).toBe('GSM-7');
  });

  it.each([
    ['a lowercase ç (only the capital is in the table)', 'ça'],
    ['a Greek lowercase letter', 'α'],
    ['Cyrillic', 'Привет'],
    ['Chinese', '你好'],
    ['an emoji', 'ok 😀'],
    ['a backtick (0x60 is ¿ in GSM)', '`'],
    ['a tab', 'a\tb'],
    ['a no-break space', 'a\u00a0b'],
    ['a curly quote', '’'],
    ['a raw ESC control character', '\u001b'],
    ['a decomposed å (a + combining ring)', 'a\u030a'],
  ])('when the text has %s, then it is UCS-2', (_label, text) => {
    expect(detectEncoding(text)).toBe('UCS-2');
  });
});

import { describe, expect, it } from 'vitest';
import { strictMarkupCheck } from './strict-markup.js';

describe('strictMarkupCheck', () => {
  it.each([
    'plain text',
    'a <break time="2s"/> b',
    '<prosody rate="slow" pitch="+10%">x</prosody>',
    'AT&amp;T',
  ])('when %s, then accepted', (msg) => {
    expect(strictMarkupCheck(msg)).toEqual({ ok: true, markup: msg });
  });

  it.each(['<break time="1s">', '</prosody>', '<prosody>x', 'a & b', '<break time=1s/>'])(
    'when %s, then refused with the parser error',
    (msg) => {
      const check = strictMarkupCheck(msg);
      expect(check.ok).toBe(false);
      expect(check.ok || check.error).toEqual(expect.any(String));
    },
  );
});

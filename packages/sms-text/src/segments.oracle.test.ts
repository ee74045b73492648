import { SegmentedMessage } from 'sms-segments-calculator';
import { describe, expect, it } from 'vitest';
import { detectEncoding } from './encoding.js';
import { countSegments } from './segments.js';

/**
 * Twilio's calculator (sms-segments-calculator) as an independent second opinion. It is not
 * used at run time (see README: ~1.6 ms per 140-character message, quadratic in length, and it
 * keeps whole grapheme clusters together), but where both apply they must agree.
 */

// Deterministic pseudo-random numbers (mulberry32), so a failing text can be reproduced.
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const BASIC = [...'aZ09 @£$¥èéÅåΔ_ÆæßÉ!?.,\n'];
const EXTENSION = [...'€[]{}^~|\\\f'];
// Characters that form a grapheme cluster of their own, so the calculator's grapheme-based
// layout and our code-point layout must coincide.
const OTHER = [...'жçα中'];
const ASTRAL = ['😀', '𝄞'];

function randomText(next: () => number, pools: string[][], length: number): string {
  let text = '';
  for (let i = 0; i < length; i++) {
    const pool = pools[Math.floor(next() * pools.length)] ?? BASIC;
    text += pool[Math.floor(next() * pool.length)] ?? 'a';
  }
  return text;
}

describe('countSegments compared with Twilio’s calculator', () => {
  it('when a single character is checked, then both agree on GSM-7 or UCS-2 for U+0000 to U+20FF', () => {
    const disagreements: string[] = [];
    for (let code = 0; code <= 0x20ff; code++) {
      const char = String.fromCharCode(code);
      if (detectEncoding(char) !== new SegmentedMessage(char).encodingName)
        disagreements.push(code.toString(16));
    }
    expect(disagreements).toEqual([]);
  });

  it('when random GSM-7 texts are counted, then septets and parts agree', () => {
    const next = random(7);
    for (let i = 0; i < 150; i++) {
      const text = randomText(next, [BASIC, BASIC, EXTENSION], 1 + Math.floor(next() * 420));
      const theirs = new SegmentedMessage(text);
      expect(countSegments(text), JSON.stringify(text)).toMatchObject({
        encoding: theirs.encodingName,
        units: theirs.numberOfCharacters,
        parts: theirs.segmentsCount,
      });
    }
  });

  it('when random UCS-2 texts with emoji are counted, then parts agree', () => {
    const next = random(11);
    for (let i = 0; i < 150; i++) {
      const text = `ж${randomText(next, [BASIC, EXTENSION, OTHER, ASTRAL], Math.floor(next() * 200))}`;
      const theirs = new SegmentedMessage(text);
      expect(countSegments(text), JSON.stringify(text)).toMatchObject({
        encoding: theirs.encodingName,
        parts: theirs.segmentsCount,
      });
    }
  });
});

import { describe, expect, it } from 'vitest';
import { checkLength, countSegments, MAX_PARTS, planParts } from './segments.js';

const gsm = (n: number) => 'a'.repeat(n);
// 'ж' is outside the GSM alphabet and a single UTF-16 code unit.
const ucs = (n: number) => 'ж'.repeat(n);

describe('countSegments: GSM-7 (spec 8.1)', () => {
  it.each([
    [1, 1, 160],
    [160, 1, 160],
    [161, 2, 153],
    [306, 2, 153],
    [307, 3, 153],
    [1530, 10, 153],
    [1531, 11, 153],
  ])(
    'when the text has %d GSM characters, then it takes %d parts of %d',
    (length, parts, perPart) => {
      expect(countSegments(gsm(length))).toEqual({
        encoding: 'GSM-7',
        units: length,
        parts,
        perPart,
      });
    },
  );
});

describe('countSegments: UCS-2 (spec 8.1)', () => {
  it.each([
    [1, 1, 70],
    [70, 1, 70],
    [71, 2, 67],
    [134, 2, 67],
    [135, 3, 67],
    [670, 10, 67],
    [671, 11, 67],
  ])(
    'when the text has %d UCS-2 characters, then it takes %d parts of %d',
    (length, parts, perPart) => {
      expect(countSegments(ucs(length))).toEqual({
        encoding: 'UCS-2',
        units: length,
        parts,
        perPart,
      });
    },
  );

  it('when one non-GSM character is in a GSM text, then the whole text counts as UCS-2', () => {
    expect(countSegments(`${gsm(69)}ж`)).toEqual({
      encoding: 'UCS-2',
      units: 70,
      parts: 1,
      perPart: 70,
    });
    expect(countSegments(`${gsm(70)}ж`)).toMatchObject({ encoding: 'UCS-2', units: 71, parts: 2 });
  });
});

describe('countSegments: extension characters count double', () => {
  it.each(['€', '[', ']', '{', '}', '^', '~', '|', '\\', '\f'])(
    'when %j is added to 159 characters, then the text needs 161 septets and 2 parts',
    (char) => {
      expect(countSegments(`${gsm(158)}${char}`)).toEqual({
        encoding: 'GSM-7',
        units: 160,
        parts: 1,
        perPart: 160,
      });
      expect(countSegments(`${gsm(159)}${char}`)).toEqual({
        encoding: 'GSM-7',
        units: 161,
        parts: 2,
        perPart: 153,
      });
    },
  );

  it('when the text is 80 euro signs, then it fills one SMS; 81 need two', () => {
    expect(countSegments('€'.repeat(80))).toMatchObject({ units: 160, parts: 1 });
    expect(countSegments('€'.repeat(81))).toMatchObject({ units: 162, parts: 2 });
  });

  it('when the text is in UCS-2, then extension characters count one unit', () => {
    expect(countSegments(`€[]ж`)).toMatchObject({ encoding: 'UCS-2', units: 4 });
  });
});

describe('countSegments: characters are never split across parts', () => {
  it('when an escape pair would straddle two parts, then it moves to the next part', () => {
    // 306 septets would fit 2 parts of 153 only by splitting ESC from its '€'.
    const text = `${gsm(152)}€${gsm(152)}`;
    expect(countSegments(text)).toEqual({ encoding: 'GSM-7', units: 306, parts: 3, perPart: 153 });
    expect(planParts(text).parts.map((part) => part.units)).toEqual([152, 153, 1]);
  });

  it('when a surrogate pair would straddle two parts, then it moves to the next part', () => {
    const text = `${ucs(66)}😀${ucs(66)}`;
    expect(countSegments(text)).toEqual({ encoding: 'UCS-2', units: 134, parts: 3, perPart: 67 });
    expect(planParts(text).parts.map((part) => part.units)).toEqual([66, 67, 1]);
  });

  it('when the text is emoji, then each counts 2 units', () => {
    expect(countSegments('😀'.repeat(35))).toEqual({
      encoding: 'UCS-2',
      units: 70,
      parts: 1,
      perPart: 70,
    });
    expect(countSegments('😀'.repeat(36))).toEqual({
      encoding: 'UCS-2',
      units: 72,
      parts: 2,
      perPart: 67,
    });
  });

  it('when parts are planned, then their ranges cover the text exactly, in order', () => {
    const text = `${'Hej {på} dig € '.repeat(30)}😀 slut`;
    const plan = planParts(text);
    expect(plan.parts.map((part) => text.slice(part.start, part.end)).join('')).toBe(text);
    expect(plan.parts.reduce((sum, part) => sum + part.units, 0)).toBe(plan.units);
    expect(Math.max(...plan.parts.map((part) => part.units))).toBeLessThanOrEqual(67);
  });
});

describe('countSegments: empty text', () => {
  it('when the text is empty, then it takes no parts', () => {
    expect(countSegments('')).toEqual({ encoding: 'GSM-7', units: 0, parts: 0, perPart: 160 });
  });
});

describe('checkLength', () => {
  it('when the text fits in 10 parts, then it is accepted with its count', () => {
    expect(checkLength(gsm(1530))).toEqual({
      ok: true,
      encoding: 'GSM-7',
      units: 1530,
      parts: 10,
      perPart: 153,
    });
    expect(checkLength(ucs(670))).toMatchObject({ ok: true, parts: 10 });
  });

  it.each([
    ['1531 GSM characters', gsm(1531)],
    ['671 UCS-2 characters', ucs(671)],
    ['1530 characters of which one is an emoji', `${gsm(1528)}😀`],
  ])('when the text is %s, then it is refused as too many parts', (_label, text) => {
    const result = checkLength(text);
    expect(result).toMatchObject({ ok: false, reason: 'too_many_parts' });
    expect(result.parts).toBeGreaterThan(MAX_PARTS);
  });

  it('when refused, then the message names the parts and the limit', () => {
    expect(checkLength(gsm(1531))).toEqual({
      ok: false,
      reason: 'too_many_parts',
      parts: 11,
      message: 'the message needs 11 SMS parts (GSM-7); at most 10 are allowed',
    });
  });

  it('when the text is empty, then it is refused as empty', () => {
    expect(checkLength('')).toMatchObject({ ok: false, reason: 'empty', parts: 0 });
  });
});

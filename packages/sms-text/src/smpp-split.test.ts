import { describe, expect, it } from 'vitest';
import { decodeGsm7 } from './gsm7-codec.js';
import { countSegments } from './segments.js';
import { decodeSmppPayload } from './smpp-decode.js';
import { SmppSplitError, splitForSmpp } from './smpp-split.js';
import { decodeUcs2 } from './ucs2-codec.js';

const gsm = (n: number) => 'a'.repeat(n);
const ucs = (n: number) => 'ж'.repeat(n);
const split = (text: string, reference = 42) => splitForSmpp(text, { reference });
const payloadLengths = (text: string) => split(text).parts.map((p) => p.payload.length);

describe('splitForSmpp: GSM-7 (spec 8.1)', () => {
  it('when the text is 160 characters, then it is one part without UDH', () => {
    const result = split(gsm(160));
    expect(result.encoding).toBe('GSM-7');
    expect(result.dataCoding).toBe(0);
    expect(result.parts).toHaveLength(1);
    expect(result.parts[0]?.udh).toBeNull();
    expect(result.parts[0]?.payload).toEqual(Buffer.from(gsm(160), 'latin1'));
  });

  it('when the text is 161 characters, then it is parts of 153 and 8 septets with UDHs', () => {
    expect(payloadLengths(gsm(161))).toEqual([153, 8]);
  });

  it('when the text is 1530 characters, then it is 10 full parts; 1531 is refused', () => {
    expect(payloadLengths(gsm(1530))).toEqual(Array(10).fill(153));
    expect(() => split(gsm(1531))).toThrow(SmppSplitError);
  });
});

describe('splitForSmpp: UCS-2 (spec 8.1)', () => {
  it('when the text is 70 characters, then it is one part of 140 octets without UDH', () => {
    const result = split(ucs(70));
    expect(result).toMatchObject({ encoding: 'UCS-2', dataCoding: 8 });
    expect(result.parts).toHaveLength(1);
    expect(result.parts[0]?.udh).toBeNull();
    expect(result.parts[0]?.payload).toHaveLength(140);
  });

  it('when the text is 71 characters, then it is parts of 67 and 4 units', () => {
    expect(payloadLengths(ucs(71))).toEqual([134, 8]);
  });

  it('when the text is 670 characters, then it is 10 full parts; 671 is refused', () => {
    expect(payloadLengths(ucs(670))).toEqual(Array(10).fill(134));
    expect(() => split(ucs(671))).toThrow(SmppSplitError);
  });
});

describe('splitForSmpp: concatenation header', () => {
  it('when a text takes three parts, then each UDH is 05 00 03 ref total seq', () => {
    const result = splitForSmpp(gsm(307), { reference: 0xab });
    expect(result.parts.map((p) => p.udh?.toString('hex'))).toEqual([
      '050003ab0301',
      '050003ab0302',
      '050003ab0303',
    ]);
  });

  it('when the reference is 0 or 255, then it is used as given', () => {
    expect(splitForSmpp(gsm(200), { reference: 0 }).parts[0]?.udh?.[3]).toBe(0);
    expect(splitForSmpp(gsm(200), { reference: 255 }).parts[1]?.udh?.[3]).toBe(255);
  });

  it.each([-1, 256, 1.5, Number.NaN])(
    'when the reference is %s, then it is refused',
    (reference) => {
      expect(() => splitForSmpp('hi', { reference })).toThrow(
        expect.objectContaining({ reason: 'bad_reference' }),
      );
    },
  );

  it('when a part with its UDH is measured, then it fits the 140 octets of one SMS', () => {
    // 6 octets of UDH leave 134 octets: 67 UCS-2 units, or 153 septets once the SMSC packs them.
    for (const part of split(ucs(300)).parts) {
      expect((part.udh?.length ?? 0) + part.payload.length).toBeLessThanOrEqual(140);
    }
  });
});

describe('splitForSmpp: characters are never split across parts', () => {
  it('when the text has extension characters, then each is an escape pair in the payload', () => {
    const result = split('€[]{}^~|\\');
    expect(result.parts[0]?.payload.toString('hex')).toBe('1b651b3c1b3e1b281b291b141b3d1b401b2f');
  });

  it('when an escape pair falls on a part boundary, then it moves whole to the next part', () => {
    const result = split(`${gsm(152)}€${gsm(152)}`);
    expect(payloadLengths(`${gsm(152)}€${gsm(152)}`)).toEqual([152, 153, 1]);
    expect(result.parts[0]?.payload.at(-1)).toBe(0x61);
    expect([...(result.parts[1]?.payload.subarray(0, 2) ?? [])]).toEqual([0x1b, 0x65]);
    expect(result.parts.map((p) => p.text)).toEqual([gsm(152), `€${gsm(151)}`, 'a']);
  });

  it('when an emoji falls on a part boundary, then its surrogate pair moves whole to the next part', () => {
    const result = split(`${ucs(66)}😀${ucs(66)}`);
    expect(result.parts.map((p) => p.payload.length)).toEqual([132, 134, 2]);
    expect(result.parts[1]?.payload.subarray(0, 4).toString('hex')).toBe('d83dde00');
    expect(result.parts[1]?.text.startsWith('😀')).toBe(true);
  });

  it('when the text is empty, then it is refused', () => {
    expect(() => split('')).toThrow(expect.objectContaining({ reason: 'empty' }));
  });

  it('when 11 parts are needed, then the error names the reason and the count', () => {
    expect(() => split(gsm(1531))).toThrow(
      expect.objectContaining({ name: 'SmppSplitError', reason: 'too_many_parts', parts: 11 }),
    );
  });
});

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

const POOLS = [[...'aZ09 @£ÅåΔ_!?.,\n'], [...'€[]{}^~|\\'], [...'жç中'], ['😀', '𝄞']];

function randomText(next: () => number, length: number, pools: string[][]): string {
  let text = '';
  for (let i = 0; i < length; i++) {
    const pool = pools[Math.floor(next() * pools.length)] ?? [];
    text += pool[Math.floor(next() * pool.length)] ?? 'a';
  }
  return text;
}

describe('splitForSmpp agrees with countSegments and round-trips', () => {
  it('when many random texts are split, then the parts match countSegments and decode back to the text', () => {
    const next = random(2026);
    let checked = 0;
    for (let i = 0; i < 400; i++) {
      // Half GSM-only (extension characters included), half with UCS-2 characters and emoji.
      const pools = i % 2 === 0 ? POOLS.slice(0, 2) : POOLS;
      const text = randomText(next, 1 + Math.floor(next() * 900), pools);
      const count = countSegments(text);
      if (count.parts > 10) {
        expect(() => split(text)).toThrow(SmppSplitError);
        continue;
      }
      const result = split(text, i % 256);
      expect(result.parts, JSON.stringify(text)).toHaveLength(count.parts);
      expect(result.encoding).toBe(count.encoding);
      const decode = result.dataCoding === 0 ? decodeGsm7 : decodeUcs2;
      expect(result.parts.map((p) => decode(p.payload)).join('')).toBe(text);
      expect(result.parts.map((p) => p.text).join('')).toBe(text);
      for (const part of result.parts) {
        const limit = result.dataCoding === 0 ? (part.udh ? 153 : 160) : part.udh ? 134 : 140;
        expect(part.payload.length).toBeLessThanOrEqual(limit);
      }
      checked++;
    }
    expect(checked).toBeGreaterThan(200);
  });

  it('when a split part is sent with UDHI and decoded as inbound, then text and concat info come back', () => {
    const text = `Hej {på} dig € ${'ж'.repeat(100)} 😀`;
    const result = splitForSmpp(text, { reference: 7 });
    const decoded = result.parts.map((p) =>
      decodeSmppPayload({
        dataCoding: result.dataCoding,
        esmClass: 0x40,
        payload: Buffer.concat([p.udh ?? Buffer.alloc(0), p.payload]),
      }),
    );
    expect(decoded.map((d) => d.text).join('')).toBe(text);
    expect(decoded.map((d) => d.concat)).toEqual([
      { reference: 7, total: 2, sequence: 1 },
      { reference: 7, total: 2, sequence: 2 },
    ]);
  });
});

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { decodeGsm7, encodeGsm7, encodeGsm7Lossy } from './gsm7.js';

describe('decodeGsm7', () => {
  it('when thousands of decoded texts are kept, then each costs its characters, not a rope of one node per character', () => {
    // The simulator keeps up to 100,000 recorded submits with their text.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const octets = Buffer.from('Benchmark message. '.repeat(9).slice(0, 160), 'ascii');
    const kept: string[] = [];
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 20_000; i++) kept.push(decodeGsm7(octets));
    gc();
    const perText = (process.memoryUsage().heapUsed - before) / kept.length;
    expect(perText).toBeLessThan(1000); // 160 characters take ~200 bytes flat; ~4.8 KB as a rope
  });

  it('when given plain ASCII-range septets, then it reads them as text', () => {
    expect(decodeGsm7(Buffer.from('Hello 123', 'ascii'))).toBe('Hello 123');
  });

  it('when given the code points that differ from ASCII, then it uses the GSM table', () => {
    expect(decodeGsm7(Buffer.from([0x00, 0x01, 0x02, 0x11, 0x5b, 0x7d, 0x7f]))).toBe('@£$_Äñà');
  });

  it('when given 0x1B escapes, then it reads the extension table (€ is 0x1B 0x65)', () => {
    expect(decodeGsm7(Buffer.from([0x1b, 0x65, 0x1b, 0x3c, 0x1b, 0x3e, 0x1b, 0x40]))).toBe('€[]|');
  });

  it('when an escape is followed by an undefined extension code, then the default char shows', () => {
    expect(decodeGsm7(Buffer.from([0x1b, 0x41]))).toBe('A');
  });

  it('when an octet is above 0x7F, then it shows the replacement character', () => {
    expect(decodeGsm7(Buffer.from([0x41, 0x80]))).toBe('A\ufffd');
  });
});

describe('encodeGsm7', () => {
  it('when text has extension characters, then each takes two octets', () => {
    expect(encodeGsm7('5€{}')).toEqual(Buffer.from([0x35, 0x1b, 0x65, 0x1b, 0x28, 0x1b, 0x29]));
  });

  it('when text has a character outside GSM-7, then it cannot be encoded', () => {
    expect(encodeGsm7('hej 😀')).toBeUndefined();
  });

  it('when every default-table character round-trips, then encode and decode agree', () => {
    const all = '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./09:;<=>?¡AZÄÖÑÜ§¿azäöñüà';
    const encoded = encodeGsm7(all);
    expect(encoded).toBeDefined();
    expect(decodeGsm7(encoded ?? Buffer.alloc(0))).toBe(all);
  });

  it('when encoding lossily, then unsupported characters become ?', () => {
    expect(decodeGsm7(encodeGsm7Lossy('ok 😀 ш'))).toBe('ok ? ?');
  });
});

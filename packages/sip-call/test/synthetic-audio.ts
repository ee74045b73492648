// Synthetic callee audio at 8 kHz (16-bit linear), passed through G.711 mu-law as on the wire.
import alawmulaw from 'alawmulaw';

const RATE = 8000;
const samplesFor = (ms: number) => Math.round((ms * RATE) / 1000);

/** Line noise well under the silence threshold. */
export function silence(ms: number, seed = 1): number[] {
  let state = seed;
  return Array.from({ length: samplesFor(ms) }, () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return (state % 61) - 30;
  });
}

/** Voiced speech-like sound: harmonics of a 140 Hz pitch under a 5 Hz syllable envelope. */
export function voice(ms: number, loudness = 6000): number[] {
  return Array.from({ length: samplesFor(ms) }, (_, i) => {
    const t = i / RATE;
    const envelope = 0.7 + 0.3 * Math.sin(2 * Math.PI * 5 * t);
    const tone =
      Math.sin(2 * Math.PI * 140 * t) +
      0.6 * Math.sin(2 * Math.PI * 280 * t) +
      0.4 * Math.sin(2 * Math.PI * 700 * t);
    return Math.round((loudness * envelope * tone) / 2);
  });
}

/** An answering machine's beep. */
export function beep(ms: number, hz = 1000): number[] {
  return Array.from({ length: samplesFor(ms) }, (_, i) =>
    Math.round(8000 * Math.sin((2 * Math.PI * hz * i) / RATE)),
  );
}

/** Words of the given lengths separated by gaps of silence. */
export function words(lengthsMs: number[], gapMs: number): number[] {
  return lengthsMs.flatMap((ms, i) => [...(i > 0 ? silence(gapMs, i + 7) : []), ...voice(ms)]);
}

export function toMulaw(samples: number[]): Buffer {
  return Buffer.from(alawmulaw.mulaw.encode(Int16Array.from(samples)));
}

/** What the detector hears: the samples after a mu-law round trip. */
export function overTheLine(samples: number[]): Int16Array {
  return alawmulaw.mulaw.decode(toMulaw(samples));
}

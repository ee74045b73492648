import alawmulaw from 'alawmulaw';

const RATE = 8000;

export const decode = (mulaw: Buffer): Int16Array => alawmulaw.mulaw.decode(mulaw);

/** Longest stretch of near-silence, in ms. */
export function longestSilenceMs(mulaw: Buffer): number {
  let longest = 0;
  let run = 0;
  for (const sample of decode(mulaw)) {
    run = Math.abs(sample) < 200 ? run + 1 : 0;
    longest = Math.max(longest, run);
  }
  return (longest / RATE) * 1000;
}

/**
 * Median fundamental frequency over voiced 40 ms frames, by normalised autocorrelation over
 * 70..400 Hz: enough to tell a male voice from a female one.
 */
export function medianPitchHz(mulaw: Buffer): number {
  const samples = decode(mulaw);
  const frame = 320;
  const pitches: number[] = [];
  for (let start = 0; start + frame + RATE / 70 < samples.length; start += frame) {
    const x = (i: number) => samples[start + i] ?? 0;
    let energy = 0;
    for (let i = 0; i < frame; i++) energy += x(i) * x(i);
    if (energy / frame < 500 * 500) continue; // silence or very quiet
    let bestLag = 0;
    let best = 0;
    for (let lag = Math.floor(RATE / 400); lag <= Math.ceil(RATE / 70); lag++) {
      let sum = 0;
      let lagged = 0;
      for (let i = 0; i < frame; i++) {
        sum += x(i) * x(i + lag);
        lagged += x(i + lag) * x(i + lag);
      }
      const r = sum / Math.sqrt(energy * lagged || 1);
      if (r > best) {
        best = r;
        bestLag = lag;
      }
    }
    if (best > 0.6) pitches.push(RATE / bestLag);
  }
  pitches.sort((a, b) => a - b);
  return pitches[Math.floor(pitches.length / 2)] ?? 0;
}

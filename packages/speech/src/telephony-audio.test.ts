import alawmulaw from 'alawmulaw';
import { describe, expect, it } from 'vitest';
import { FRAME_SAMPLES, toTelephonyMulaw } from './telephony-audio.js';

const tone = (hz: number, rate: number, seconds: number) =>
  Int16Array.from({ length: Math.round(rate * seconds) }, (_, i) =>
    Math.round(12_000 * Math.sin((2 * Math.PI * hz * i) / rate)),
  );

/** Amplitude of one frequency in a signal (single-bin DFT), ignoring the edges. */
function amplitudeAt(samples: Int16Array, hz: number, rate: number): number {
  let re = 0;
  let im = 0;
  const from = 400;
  const to = samples.length - 400;
  for (let i = from; i < to; i++) {
    re += (samples[i] ?? 0) * Math.cos((2 * Math.PI * hz * i) / rate);
    im += (samples[i] ?? 0) * Math.sin((2 * Math.PI * hz * i) / rate);
  }
  return (2 * Math.hypot(re, im)) / (to - from);
}

describe('toTelephonyMulaw', () => {
  it('when audio is 22.05 kHz, then it becomes 8 kHz mu-law in whole 20 ms frames', () => {
    const mulaw = toTelephonyMulaw(tone(440, 22_050, 1.01), 22_050);
    expect(mulaw.length % FRAME_SAMPLES).toBe(0);
    expect(mulaw.length).toBe(8160); // 1.01 s = 8080 samples, padded to 51 frames
    expect(mulaw.subarray(8090).every((code) => code === 0xff)).toBe(true); // padding is silence
  });

  it('when a tone is below 4 kHz, then it survives resampling and encoding', () => {
    const decoded = alawmulaw.mulaw.decode(toTelephonyMulaw(tone(1000, 22_050, 1), 22_050));
    expect(amplitudeAt(decoded, 1000, 8000)).toBeGreaterThan(9_000);
  });

  it('when a tone is above 4 kHz, then it is filtered out instead of aliasing into the band', () => {
    // A 6 kHz tone decimated naively folds back to 2 kHz at full strength.
    const decoded = alawmulaw.mulaw.decode(toTelephonyMulaw(tone(6000, 22_050, 1), 22_050));
    expect(amplitudeAt(decoded, 2000, 8000)).toBeLessThan(600);
  });

  it('when there is no audio, then there are no frames', () => {
    expect(toTelephonyMulaw(new Int16Array(0), 22_050)).toHaveLength(0);
  });
});

import alawmulaw from 'alawmulaw';
import { describe, expect, it } from 'vitest';
import { summarise } from './audio-analysis.js';
import { HUMAN_SCRIPT, MACHINE_SCRIPT, promptMulaw, renderPrompt } from './prompts.js';

const tone = (seconds: number, hz: number, amplitude: number) =>
  Int16Array.from({ length: seconds * 8000 }, (_, i) =>
    Math.round(amplitude * Math.sin((2 * Math.PI * hz * i) / 8000)),
  );

describe('summarise', () => {
  it('when the audio is digital silence, then nothing speech-like was heard', () => {
    expect(summarise(new Int16Array(8000))).toEqual({
      speechLike: false,
      rmsDbfs: -99,
      voicedMs: 0,
      levelSpreadDb: 0,
    });
  });

  it('when the audio is a steady tone, then it is loud but not speech-like', () => {
    const heard = summarise(tone(2, 1000, 10_000));
    expect(heard.voicedMs).toBe(2000);
    expect(heard.speechLike).toBe(false);
    expect(heard.rmsDbfs).toBeCloseTo(-13.3, 0);
  });

  it('when the audio is the machine greeting, then it is speech-like', () => {
    const decoded = alawmulaw.mulaw.decode(promptMulaw(MACHINE_SCRIPT));
    const heard = summarise(decoded);
    expect(heard.speechLike).toBe(true);
    expect(heard.voicedMs).toBeGreaterThan(2000);
  });
});

describe('prompts', () => {
  it('renders whole 20 ms frames to the end of each script', () => {
    expect(renderPrompt(HUMAN_SCRIPT).length).toBe(800 * 8);
    expect(renderPrompt(MACHINE_SCRIPT).length).toBe(4100 * 8);
  });

  it('when the human says hello, then about 0.6 s of it is sound and the rest silence', () => {
    const heard = summarise(renderPrompt(HUMAN_SCRIPT));
    expect(heard.voicedMs).toBeGreaterThanOrEqual(440);
    expect(heard.voicedMs).toBeLessThanOrEqual(600);
  });
});

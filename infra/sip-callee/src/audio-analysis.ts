import { FRAME_MS, FRAME_SAMPLES } from './prompts.js';

/** What the callee made of the audio it received (README "What it heard"). */
export interface HeardSummary {
  /** Voiced frames add up to at least 300 ms and their level varies by 6 dB or more. */
  speechLike: boolean;
  /** RMS level of the whole recording, dBFS (-Infinity for digital silence is reported as -99). */
  rmsDbfs: number;
  /** Milliseconds of 20 ms frames louder than VOICED_DBFS. */
  voicedMs: number;
  /** 90th minus 10th percentile of the voiced frames' levels, dB: ~0 for a steady tone. */
  levelSpreadDb: number;
}

/** A frame louder than this is taken as sound rather than silence or line noise. */
export const VOICED_DBFS = -40;
const MIN_SPEECH_MS = 300;
const MIN_SPREAD_DB = 6;
const FLOOR_DBFS = -99;

export function levelDbfs(samples: Int16Array, from = 0, to = samples.length): number {
  if (to <= from) return FLOOR_DBFS;
  let sum = 0;
  for (let i = from; i < to; i++) {
    const value = (samples[i] ?? 0) / 32768;
    sum += value * value;
  }
  const rms = Math.sqrt(sum / (to - from));
  return rms > 0 ? Math.max(FLOOR_DBFS, 20 * Math.log10(rms)) : FLOOR_DBFS;
}

/** True when a frame of decoded audio carries sound (used for the hang-up-after-silence rule). */
export function isVoiced(samples: Int16Array): boolean {
  return levelDbfs(samples) > VOICED_DBFS;
}

const round1 = (value: number) => Math.round(value * 10) / 10;

export function summarise(samples: Int16Array): HeardSummary {
  const levels: number[] = [];
  for (let from = 0; from + FRAME_SAMPLES <= samples.length; from += FRAME_SAMPLES) {
    const level = levelDbfs(samples, from, from + FRAME_SAMPLES);
    if (level > VOICED_DBFS) levels.push(level);
  }
  levels.sort((a, b) => a - b);
  const percentile = (p: number) => levels[Math.floor(p * (levels.length - 1))] ?? 0;
  const levelSpreadDb = levels.length > 0 ? percentile(0.9) - percentile(0.1) : 0;
  const voicedMs = levels.length * FRAME_MS;
  return {
    speechLike: voicedMs >= MIN_SPEECH_MS && levelSpreadDb >= MIN_SPREAD_DB,
    rmsDbfs: round1(levelDbfs(samples)),
    voicedMs,
    levelSpreadDb: round1(levelSpreadDb),
  };
}

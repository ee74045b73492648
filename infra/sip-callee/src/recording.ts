import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import wavefile from 'wavefile';
import { SAMPLE_RATE } from './prompts.js';

/** Writes received audio as a 16-bit PCM mono WAV at 8 kHz; returns its path. */
export function writeWav(recordDir: string, callId: string, samples: Int16Array): string {
  const wav = new wavefile.WaveFile();
  wav.fromScratch(1, SAMPLE_RATE, '16', samples);
  const path = join(recordDir, `${callId}.wav`);
  // Synchronous on purpose: the file exists before the BYE is answered, so a caller that sees
  // its call end can read the recording at once. A call's recording is a few hundred kB at most.
  writeFileSync(path, wav.toBuffer());
  return path;
}

import alawmulaw from 'alawmulaw';

/**
 * What the callee says when it answers: synthetic, speech-like audio (a voiced harmonic source
 * shaped by two formants under a syllable envelope) and a pure beep. Answering-machine detection
 * is measured against these, so the timings are fixed and documented in the README:
 * - human:   200 ms silence, "hel" 200–450 ms, "lo?" 500–800 ms (rising pitch), then silence.
 * - machine: 300 ms silence, a 3 s greeting of five two-syllable words (300–3300 ms, 150 ms
 *            pauses), 300 ms silence, a 1 kHz beep 3600–4100 ms, then silence.
 */
export const SAMPLE_RATE = 8000;
export const FRAME_SAMPLES = 160;
export const FRAME_MS = 20;

export interface Utterance {
  startMs: number;
  endMs: number;
  syllables: number;
  /** Pitch at the start and at the end, Hz. */
  pitchHz: readonly [number, number];
}

export interface PromptScript {
  utterances: readonly Utterance[];
  beep?: { startMs: number; endMs: number; frequencyHz: number };
  /** Where the prompt ends; silence follows for as long as the call lasts. */
  endMs: number;
}

export const HUMAN_SCRIPT: PromptScript = {
  utterances: [
    { startMs: 200, endMs: 450, syllables: 1, pitchHz: [140, 128] },
    { startMs: 500, endMs: 800, syllables: 1, pitchHz: [130, 190] },
  ],
  endMs: 800,
};

export const MACHINE_SCRIPT: PromptScript = {
  utterances: [
    { startMs: 300, endMs: 750, syllables: 2, pitchHz: [190, 170] },
    { startMs: 900, endMs: 1400, syllables: 2, pitchHz: [200, 175] },
    { startMs: 1550, endMs: 2000, syllables: 2, pitchHz: [185, 165] },
    { startMs: 2150, endMs: 2700, syllables: 2, pitchHz: [195, 170] },
    { startMs: 2850, endMs: 3300, syllables: 2, pitchHz: [180, 150] },
  ],
  beep: { startMs: 3600, endMs: 4100, frequencyHz: 1000 },
  endMs: 4100,
};

const SPEECH_PEAK = 0.35;
const BEEP_AMPLITUDE = 0.3;
/** Vowel formants (F1, F2) in Hz, taken in turn by successive syllables. */
const VOWELS: readonly (readonly [number, number])[] = [
  [700, 1220],
  [400, 2000],
  [550, 900],
  [300, 2300],
  [620, 1700],
];

const samplesAt = (ms: number) => Math.round((ms * SAMPLE_RATE) / 1000);

function resonance(frequency: number, centre: number, bandwidth: number): number {
  const x = (frequency - centre) / bandwidth;
  return 1 / (1 + x * x);
}

/** Syllable envelope: 30 ms rise, 50 ms fall, a sustained body; 0 outside the syllable. */
function envelope(position: number, length: number): number {
  const rise = samplesAt(30);
  const fall = samplesAt(50);
  if (position < rise) return 0.5 - 0.5 * Math.cos((Math.PI * position) / rise);
  if (position > length - fall) return 0.5 - 0.5 * Math.cos((Math.PI * (length - position)) / fall);
  return 1;
}

function renderUtterance(out: Float64Array, utterance: Utterance, vowelOffset: number): void {
  const start = samplesAt(utterance.startMs);
  const length = samplesAt(utterance.endMs) - start;
  const syllableLength = Math.floor(length / utterance.syllables);
  let phase = 0;
  for (let i = 0; i < length; i++) {
    const syllable = Math.min(utterance.syllables - 1, Math.floor(i / syllableLength));
    const [f1, f2] = VOWELS[(vowelOffset + syllable) % VOWELS.length] ?? [500, 1500];
    const pitch =
      utterance.pitchHz[0] + ((utterance.pitchHz[1] - utterance.pitchHz[0]) * i) / length;
    phase += (2 * Math.PI * pitch) / SAMPLE_RATE;
    let sample = 0;
    // Harmonics up to the telephone band's top, weighted by the vocal-tract resonances.
    for (let k = 1; k * pitch < 3400; k++) {
      const gain = resonance(k * pitch, f1, 120) + 0.7 * resonance(k * pitch, f2, 180);
      sample += (gain / Math.sqrt(k)) * Math.sin(k * phase);
    }
    out[start + i] = sample * envelope(i - syllable * syllableLength, syllableLength);
  }
}

/** The prompt as 16-bit PCM at 8 kHz, whole 20 ms frames. */
export function renderPrompt(script: PromptScript): Int16Array {
  const frames = Math.ceil(samplesAt(script.endMs) / FRAME_SAMPLES);
  const out = new Float64Array(frames * FRAME_SAMPLES);
  script.utterances.forEach((utterance, index) => {
    renderUtterance(out, utterance, index * 2);
  });
  let peak = 0;
  for (const value of out) peak = Math.max(peak, Math.abs(value));
  const scale = peak > 0 ? SPEECH_PEAK / peak : 0;
  for (let i = 0; i < out.length; i++) out[i] = (out[i] ?? 0) * scale;
  if (script.beep) {
    const from = samplesAt(script.beep.startMs);
    const to = samplesAt(script.beep.endMs);
    for (let i = from; i < to; i++) {
      out[i] =
        BEEP_AMPLITUDE *
        Math.sin((2 * Math.PI * script.beep.frequencyHz * (i - from)) / SAMPLE_RATE) *
        Math.min(1, (i - from) / 40, (to - i) / 40);
    }
  }
  return Int16Array.from(out, (value) => Math.round(value * 32767));
}

const cache = new Map<PromptScript, Buffer>();

/** The prompt encoded as G.711 mu-law, rendered once per script. */
export function promptMulaw(script: PromptScript): Buffer {
  let encoded = cache.get(script);
  if (!encoded) {
    encoded = Buffer.from(alawmulaw.mulaw.encode(renderPrompt(script)));
    cache.set(script, encoded);
  }
  return encoded;
}

/** Mu-law of digital silence (0xFF decodes to 0). */
export const MULAW_SILENCE_FRAME = Buffer.alloc(FRAME_SAMPLES, 0xff);

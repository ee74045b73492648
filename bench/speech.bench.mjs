// Speech synthesis (issue 14), `pnpm bench speech`:
//  - the raw eSpeak NG WebAssembly call in this process (the floor: no IPC, no resampling, PCM
//    at 22.05 kHz), loaded here directly from @echogarden/espeak-ng-emscripten;
//  - the full adapter, @msg/speech's createSpeechEngine with one worker process: IPC, synthesis,
//    windowed-sinc resampling to 8 kHz, G.711 mu-law encoding, back over IPC.
// The same texts (en-GB, sv, de, about 200 characters each) go through both, interleaved request
// by request so a change in the machine's load hits both alike. Reported: synthesis time per 100
// characters, the real-time factor (time to synthesise / duration of the audio) and the ratio of
// the adapter to the floor. Bounded: ROUNDS rounds (default 24) or MAX_SECONDS (default 90).

import os from 'node:os';
import initialize from '@echogarden/espeak-ng-emscripten';
import { createSpeechEngine } from '@msg/speech';

const ROUNDS = Number(process.env.SPEECH_BENCH_ROUNDS ?? 24);
const MAX_SECONDS = Number(process.env.SPEECH_BENCH_MAX_SECONDS ?? 90);

const TEXTS = [
  {
    language: 'en-GB',
    voice: 'en+m3',
    text: 'Hello, this is a reminder from your dental clinic. Your appointment is on Tuesday the 4th at 10:30. Your booking code is 4 7 1 9. Please call us on 0 8 1 2 3 4 if you need to change it.',
  },
  {
    language: 'sv',
    voice: 'sv+m3',
    text: 'Hej, det här är en påminnelse från din tandläkare. Din tid är på tisdag den 4 klockan 10:30. Din bokningskod är 4 7 1 9. Ring oss på 0 8 1 2 3 4 om du behöver ändra tiden.',
  },
  {
    language: 'de',
    voice: 'de+m3',
    text: 'Hallo, hier ist eine Erinnerung Ihrer Zahnarztpraxis. Ihr Termin ist am Dienstag, den 4., um 10:30 Uhr. Ihr Buchungscode lautet 4 7 1 9. Bitte rufen Sie uns an, wenn Sie ihn ändern möchten.',
  },
];

async function rawEngine() {
  const module = await initialize();
  const worker = new module.eSpeakNGWorker();
  let current;
  return (text, voice) => {
    if (voice !== current && worker.set_voice(voice) === 0) current = voice;
    let samples = 0;
    worker.synthesize(text, (chunk) => {
      samples += chunk.length;
      return false;
    });
    return (samples / worker.samplerate) * 1000;
  };
}

const escapeMarkup = (text) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

function row(name, samples, floor) {
  const ms = samples.reduce((a, s) => a + s.ms, 0);
  const chars = samples.reduce((a, s) => a + s.chars, 0);
  const audioMs = samples.reduce((a, s) => a + s.audioMs, 0);
  const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
  return {
    name,
    requests: samples.length,
    'audio s': (audioMs / 1000).toFixed(1),
    'ms per 100 chars': ((ms / chars) * 100).toFixed(1),
    'p50 ms per request': sorted[Math.floor(sorted.length / 2)].toFixed(1),
    'real-time factor': (ms / audioMs).toFixed(3),
    'ratio to raw engine': floor === undefined ? '1.00' : (ms / floor).toFixed(2),
    load: os.loadavg()[0].toFixed(1),
  };
}

export async function run() {
  const raw = await rawEngine();
  const engine = createSpeechEngine({ workers: 1 });
  try {
    // Warm up both: module load, voice files, JIT.
    for (const { text, voice, language } of TEXTS) {
      raw(escapeMarkup(text), voice);
      await engine.synthesize({ text, language, gender: 'male' });
    }
    const rawSamples = [];
    const adapterSamples = [];
    const deadline = Date.now() + MAX_SECONDS * 1000;
    for (let i = 0; i < ROUNDS && Date.now() < deadline; i++) {
      const { text, voice, language } = TEXTS[i % TEXTS.length];
      let start = performance.now();
      const rawAudioMs = raw(escapeMarkup(text), voice);
      rawSamples.push({ ms: performance.now() - start, chars: text.length, audioMs: rawAudioMs });
      start = performance.now();
      const audio = await engine.synthesize({ text, language, gender: 'male' });
      adapterSamples.push({
        ms: performance.now() - start,
        chars: text.length,
        audioMs: audio.durationMs,
      });
    }
    const floorMs = rawSamples.reduce((a, s) => a + s.ms, 0);
    return {
      title:
        'Speech synthesis: raw eSpeak NG in-process (floor) vs the @msg/speech adapter (1 worker process)',
      rows: [
        row('raw eSpeak NG call, in process, 22.05 kHz PCM (floor)', rawSamples),
        row(
          'createSpeechEngine: worker process + resample to 8 kHz + mu-law',
          adapterSamples,
          floorMs,
        ),
      ],
    };
  } finally {
    await engine.close();
  }
}

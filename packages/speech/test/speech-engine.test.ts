import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createSpeechEngine,
  parseSpeechMarkup,
  type SpeechAudio,
  type SpeechEngine,
  SpeechError,
  VOICE_LANGUAGES,
} from '../src/index.js';
import type { SpeechRequest } from '../src/speech-engine.js';
import { longestSilenceMs, medianPitchHz } from './audio-analysis.js';
import { buildPackage } from './build.js';

// Real eSpeak NG in real worker processes: slow on a shared machine, hence generous timeouts.
const SLOW = 240_000;

let engine: SpeechEngine;
beforeAll(() => {
  buildPackage();
  engine = createSpeechEngine({ workers: 1 });
}, SLOW);
afterAll(() => engine?.close());

const say = (text: string, language = 'en-GB', gender: SpeechRequest['gender'] = 'male') =>
  engine.synthesize({ text, language, gender });

function markup(msg: string) {
  const parsed = parseSpeechMarkup(msg);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.markup;
}

function expectTelephonyAudio(audio: SpeechAudio): void {
  expect(audio.sampleRate).toBe(8000);
  expect(audio.mulaw.length).toBe(audio.durationMs * 8);
  expect(audio.mulaw.length % 160).toBe(0);
}

/** Worker processes of this test process (the engine forks them). */
function workerPids(): number[] {
  const out = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], {
    encoding: 'utf8',
  });
  return out
    .split('\n')
    .filter((line) => line.includes('synthesis-worker.js'))
    .map((line) => Number.parseInt(line.trim(), 10));
}

describe('createSpeechEngine: languages', () => {
  it(
    'when each of the 45 tags speaks a short text, then the audio is non-empty and of plausible length',
    async () => {
      for (const language of VOICE_LANGUAGES) {
        const audio = await say('12 34', language);
        expectTelephonyAudio(audio);
        // Two numbers: not nothing, not a voice stuck spelling or looping.
        expect(audio.durationMs, language).toBeGreaterThan(400);
        expect(audio.durationMs, language).toBeLessThan(6000);
        expect(longestSilenceMs(audio.mulaw), language).toBeLessThan(audio.durationMs);
      }
    },
    SLOW,
  );

  it(
    'when the language is zh, then Chinese is spoken as Chinese, not spelt out as foreign letters',
    async () => {
      const text = '你好，今天天气很好。';
      const mandarin = await say(text, 'zh');
      const english = await say(text, 'en-GB');
      expectTelephonyAudio(mandarin);
      expect(mandarin.durationMs).toBeGreaterThan(1000);
      // An English voice names each Han character ("Chinese letter"); Mandarin reads the syllables.
      expect(english.durationMs).toBeGreaterThan(mandarin.durationMs * 1.5);
    },
    SLOW,
  );

  it(
    'when the text has nothing to speak, then synthesis fails instead of giving empty audio',
    async () => {
      await expect(say('   ')).rejects.toThrow(/speech synthesis failed: no audio/);
      expectTelephonyAudio(await say('still working'));
    },
    SLOW,
  );

  it('when the language is not a tag of 2.6, then synthesis is refused at once', async () => {
    await expect(say('hello', 'xx')).rejects.toThrow(/unsupported language: xx/);
  });
});

describe('createSpeechEngine: voice', () => {
  it.each(['en-GB', 'sv', 'de'])(
    'when the gender is female in %s, then the audio differs and the voice is higher',
    async (language) => {
      const text = 'Your appointment is on Tuesday at ten.';
      const male = await say(text, language, 'male');
      const female = await say(text, language, 'female');
      expect(female.mulaw.equals(male.mulaw)).toBe(false);
      const malePitch = medianPitchHz(male.mulaw);
      const femalePitch = medianPitchHz(female.mulaw);
      expect(malePitch).toBeGreaterThan(70);
      expect(femalePitch).toBeGreaterThan(malePitch * 1.4);
    },
    SLOW,
  );
});

describe('createSpeechEngine: number reading (spec 4.6)', () => {
  it.each(['en-GB', 'sv', 'de'])(
    'when digits are separated by spaces in %s, then they are read one by one, shorter than the whole number',
    async (language) => {
      const oneByOne = await say('4 7 1 9', language);
      const number = await say('4719', language);
      const twoDigits = await say('4 7', language);
      // "four seven one nine" vs "four thousand seven hundred and nineteen"
      expect(number.durationMs).toBeGreaterThan(oneByOne.durationMs * 1.3);
      // Reading one by one grows with the digits.
      expect(oneByOne.durationMs).toBeGreaterThan(twoDigits.durationMs * 1.4);
    },
    SLOW,
  );
});

describe('createSpeechEngine: markup', () => {
  it(
    'when REST text holds a break tag, then it is read as text, never obeyed',
    async () => {
      const audio = await say('Please wait <break time="3s"/> thank you');
      expect(longestSilenceMs(audio.mulaw)).toBeLessThan(1000);
    },
    SLOW,
  );

  it(
    'when legacy markup has a 2 s break, then the audio holds a 2 s pause',
    async () => {
      const audio = await engine.synthesize({
        text: '',
        markup: markup('Please wait <break time="2s"/> thank you'),
        language: 'en-GB',
        gender: 'female',
      });
      expectTelephonyAudio(audio);
      expect(longestSilenceMs(audio.mulaw)).toBeGreaterThan(1900);
      expect(longestSilenceMs(audio.mulaw)).toBeLessThan(3000);
    },
    SLOW,
  );

  it(
    'when legacy markup sets the rate, then x-slow speech lasts longer than x-fast',
    async () => {
      const text = 'The quick brown fox jumps over the lazy dog.';
      const at = (rate: string) =>
        engine.synthesize({
          text: '',
          markup: markup(`<prosody rate="${rate}">${text}</prosody>`),
          language: 'en-GB',
          gender: 'male',
        });
      const slow = await at('x-slow');
      const fast = await at('x-fast');
      expect(slow.durationMs).toBeGreaterThan(fast.durationMs * 2);
    },
    SLOW,
  );

  it(
    'when legacy markup raises the pitch, then the voice is higher',
    async () => {
      const text = 'Your appointment is on Tuesday at ten.';
      const at = (pitch: string) =>
        engine.synthesize({
          text: '',
          markup: markup(`<prosody pitch="${pitch}">${text}</prosody>`),
          language: 'en-GB',
          gender: 'male',
        });
      expect(medianPitchHz((await at('x-high')).mulaw)).toBeGreaterThan(
        medianPitchHz((await at('x-low')).mulaw) * 1.25,
      );
    },
    SLOW,
  );
});

describe('createSpeechEngine: worker processes', () => {
  it(
    'when a worker dies mid-synthesis, then that request fails cleanly, the next is served by a replacement',
    async () => {
      await say('warm up');
      const [victim] = workerPids();
      expect(victim).toBeGreaterThan(0);
      const long = say(
        'This sentence is long enough to keep the worker busy for a while. '.repeat(30),
      );
      const queued = say('queued behind it');
      process.kill(victim as number, 'SIGKILL');
      await expect(long).rejects.toThrow(SpeechError);
      await expect(long).rejects.toThrow(/speech worker exited during synthesis/);
      expectTelephonyAudio(await queued); // not lost
      expect(workerPids()).not.toContain(victim);
      expect(workerPids()).toHaveLength(1);
    },
    SLOW,
  );

  it(
    'when a synthesis exceeds the time limit, then it fails and the engine goes on',
    async () => {
      const limited = createSpeechEngine({ timeoutMs: 2000 });
      try {
        await expect(
          limited.synthesize({
            text: 'A very long text. '.repeat(1500),
            language: 'en-GB',
            gender: 'male',
          }),
        ).rejects.toThrow(/timed out after 2000 ms/);
        expectTelephonyAudio(
          await limited.synthesize({ text: 'ok', language: 'en-GB', gender: 'male' }),
        );
      } finally {
        await limited.close();
      }
    },
    SLOW,
  );

  it(
    'when the engine is closed, then its workers exit and requests are refused',
    async () => {
      const closing = createSpeechEngine({ workers: 2 });
      const before = workerPids().length;
      await closing.close();
      expect(workerPids().length).toBe(before - 2);
      await expect(
        closing.synthesize({ text: 'hi', language: 'sv', gender: 'male' }),
      ).rejects.toThrow(/closed/);
    },
    SLOW,
  );
});

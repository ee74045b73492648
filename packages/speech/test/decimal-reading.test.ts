import initialize from '@echogarden/espeak-ng-emscripten';
import { describe, expect, it } from 'vitest';
import { espeakVoice, VOICE_LANGUAGES } from '../src/languages.js';
import { DECIMAL_COMMA_ONLY, normaliseDecimalPoint } from '../src/numbers.js';

// Spec 4.6: "use a dot as decimal separator". Checked on eSpeak NG's phonemes (in this test
// process, the engine itself, not the adapter), so an engine upgrade that changes its reading
// shows up here.
describe('decimal point reading', () => {
  it('when a decimal is written with a dot, then every language speaks a decimal separator', async () => {
    const module = await initialize();
    const espeak = new module.eSpeakNGWorker();
    const dropsTheDot: string[] = [];
    for (const language of VOICE_LANGUAGES) {
      expect(espeak.set_voice(espeakVoice(language, 'male'))).toBe(0);
      const phonemes = (text: string) => espeak.synthesize_ipa(text).ipa.replaceAll('_', '').trim();
      const twoNumbers = phonemes('12 75');
      if (phonemes('12.75') === twoNumbers) dropsTheDot.push(language);
      // What the adapter gives the engine is read with a separator word in every language.
      expect(phonemes(normaliseDecimalPoint('12.75', language)), language).not.toBe(twoNumbers);
    }
    expect(dropsTheDot.sort()).toEqual([...DECIMAL_COMMA_ONLY].sort());
  }, 60_000);
});

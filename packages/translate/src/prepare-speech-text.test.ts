import { describe, expect, it, vi } from 'vitest';
import type { LanguageDetector } from './language-detection.js';
import { prepareSpeechText } from './prepare-speech-text.js';
import { TranslationError } from './translation-error.js';
import type { Translator } from './translator.js';

const recordingTranslator = (answer = 'översatt text') => {
  const translate = vi.fn<Translator['translate']>(async () => answer);
  return { translator: { translate }, translate };
};

describe('prepareSpeechText (real detector)', () => {
  it('when the text is in the requested language, then it is spoken untouched and not translated', async () => {
    const { translator, translate } = recordingTranslator();
    const text = 'Din tid hos tandläkaren är i morgon klockan tre.';
    expect(await prepareSpeechText({ text, language: 'sv', translator })).toEqual({
      text,
      translated: false,
      detected: 'sv',
    });
    expect(translate).not.toHaveBeenCalled();
  });

  it('when English text is requested in en-US, then it counts as the same language', async () => {
    const { translator, translate } = recordingTranslator();
    const text = 'Thank you for your order, it will be delivered soon.';
    expect(await prepareSpeechText({ text, language: 'en-US', translator })).toEqual({
      text,
      translated: false,
      detected: 'en-US',
    });
    expect(translate).not.toHaveBeenCalled();
  });

  it('when the text is in another language and a translator is set, then the translation is spoken', async () => {
    const { translator, translate } = recordingTranslator('Tack för din beställning.');
    const text = 'Thank you for your order, it will be delivered soon.';
    expect(await prepareSpeechText({ text, language: 'sv', translator })).toEqual({
      text: 'Tack för din beställning.',
      translated: true,
      detected: 'en-GB',
    });
    expect(translate).toHaveBeenCalledWith(text, { source: 'en-GB', target: 'sv' });
  });

  it('when the text is in another language and no translator is set, then it is spoken as given and flagged', async () => {
    const text = 'Vielen Dank für Ihre Bestellung, sie wird bald geliefert.';
    expect(await prepareSpeechText({ text, language: 'sv' })).toEqual({
      text,
      translated: false,
      detected: 'de',
    });
  });

  it('when the text is numbers only, then nothing is detected and nothing translated', async () => {
    const { translator, translate } = recordingTranslator();
    expect(await prepareSpeechText({ text: '4711 0815', language: 'de', translator })).toEqual({
      text: '4711 0815',
      translated: false,
    });
    expect(translate).not.toHaveBeenCalled();
  });

  it('when a short Swedish text reads as Danish, then the declared sv wins and nothing is translated', async () => {
    const { translator, translate } = recordingTranslator();
    expect(await prepareSpeechText({ text: 'Hej, ring mig.', language: 'sv', translator })).toEqual(
      {
        text: 'Hej, ring mig.',
        translated: false,
        detected: 'sv',
      },
    );
    expect(translate).not.toHaveBeenCalled();
  });
});

describe('prepareSpeechText (detector rows)', () => {
  const saying =
    (language: string): LanguageDetector =>
    () => ({ language, confidence: 0.8 });

  it('when af is requested and the detector (which has no Afrikaans) says nl, then nothing is translated', async () => {
    const { translator, translate } = recordingTranslator();
    const text = 'Baie dankie vir jou bestelling.';
    expect(
      await prepareSpeechText({ text, language: 'af', detector: saying('nl'), translator }),
    ).toEqual({
      text,
      translated: false,
      detected: 'nl',
    });
    expect(translate).not.toHaveBeenCalled();
  });

  it('when the translator fails, then its TranslationError reaches the caller', async () => {
    const translator: Translator = {
      translate: async () => {
        throw new TranslationError('unavailable', 'the translator refused: HTTP 502', 502);
      },
    };
    await expect(
      prepareSpeechText({ text: 'Guten Tag', language: 'sv', detector: saying('de'), translator }),
    ).rejects.toMatchObject({ name: 'TranslationError', failure: 'unavailable', status: 502 });
  });
});

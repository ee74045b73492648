import { PassThrough } from 'node:stream';
import { createLogger } from '@msg/logger';
import { parseSpeechMarkup } from '@msg/speech';
import { TranslationError, type Translator } from '@msg/translate';
import { describe, expect, it } from 'vitest';
import type { ClaimedAttempt } from './attempt-store.js';
import { speechRequestOf } from './speech-input.js';

const ENGLISH = 'Your parcel arrives tomorrow morning, please be at home to sign for it';

function claimed(overrides: Partial<ClaimedAttempt>): ClaimedAttempt {
  return {
    transactionId: 'tx-1',
    accountId: 'a',
    number: 1,
    claim: 'c',
    recipient: '+46701234567',
    callerId: '+46812345678',
    text: ENGLISH,
    markup: null,
    language: 'sv',
    gender: 'male',
    machineDetection: false,
    playCount: 1,
    clientReference: null,
    ...overrides,
  };
}

/** A logger whose JSON lines the test reads. */
function capturedLogger() {
  const stream = new PassThrough();
  const lines: string[] = [];
  stream.on('data', (chunk: Buffer) => lines.push(...chunk.toString().trim().split('\n')));
  return { logger: createLogger({ service: 'voice', level: 'info', stream }), lines };
}

/** A translator that prefixes the target tag, or fails with `failure`; it counts its calls. */
function fakeTranslator(failure?: 'unavailable' | 'forbidden') {
  const calls: { text: string; source: string; target: string }[] = [];
  const translator: Translator & { calls: typeof calls } = {
    calls,
    async translate(text, { source, target }) {
      calls.push({ text, source, target });
      if (failure) throw new TranslationError(failure, `provider: ${failure}`);
      return `[${target}] ${text}`;
    },
  };
  return translator;
}

const options = (translator?: Translator) => ({
  validateMarkup: parseSpeechMarkup,
  ...(translator && { translator }),
  ...capturedLogger(),
});

describe('speechRequestOf (spec 4.6)', () => {
  it('when the text is in another language and a translator is configured, then the translation is spoken', async () => {
    const translator = fakeTranslator();
    const request = await speechRequestOf(claimed({}), options(translator));
    expect(translator.calls).toEqual([{ text: ENGLISH, source: 'en-GB', target: 'sv' }]);
    expect(request).toEqual({ text: `[sv] ${ENGLISH}`, language: 'sv', gender: 'male' });
  });

  it('when the text is in its own language, then it is not translated', async () => {
    const translator = fakeTranslator();
    const text = 'Ditt paket kommer i morgon bitti, var hemma och skriv under';
    const request = await speechRequestOf(claimed({ text }), options(translator));
    expect(translator.calls).toHaveLength(0);
    expect(request.text).toBe(text);
  });

  it('when no translator is configured, then the text is spoken as given and the log names the languages, never the text', async () => {
    const opts = options();
    const request = await speechRequestOf(claimed({}), opts);
    expect(request.text).toBe(ENGLISH);
    const line = opts.lines.find((l) => l.includes('spoken untranslated'));
    expect(JSON.parse(line ?? '{}')).toMatchObject({
      transactionId: 'tx-1',
      language: 'sv',
      detected: 'en-GB',
      translator: 'none',
    });
    expect(opts.lines.join('\n')).not.toContain('parcel');
  });

  it('when a legacy Msg holds <break> or <prosody>, then its parsed markup is spoken, untranslated', async () => {
    const translator = fakeTranslator();
    const msg = `${ENGLISH} <break time="500ms"/>thanks`;
    const request = await speechRequestOf(claimed({ text: msg, markup: msg }), options(translator));
    expect(translator.calls).toHaveLength(0);
    const parsed = parseSpeechMarkup(msg);
    expect(parsed.ok && request.markup).toEqual(parsed.ok && parsed.markup);
  });

  it('when a legacy Msg has no marks, then its text (entities decoded) is translated as plain text', async () => {
    const translator = fakeTranslator();
    const msg = `${ENGLISH} &amp; thanks`;
    const request = await speechRequestOf(claimed({ text: msg, markup: msg }), options(translator));
    expect(translator.calls[0]?.text).toBe(`${ENGLISH} & thanks`);
    expect(request).toEqual({ text: `[sv] ${ENGLISH} & thanks`, language: 'sv', gender: 'male' });
  });

  it('when translation fails transiently twice, then it was tried twice and the error is thrown', async () => {
    const translator = fakeTranslator('unavailable');
    await expect(speechRequestOf(claimed({}), options(translator))).rejects.toBeInstanceOf(
      TranslationError,
    );
    expect(translator.calls).toHaveLength(2);
  });

  it('when translation is refused (a configuration error), then it fails at once', async () => {
    const translator = fakeTranslator('forbidden');
    await expect(speechRequestOf(claimed({}), options(translator))).rejects.toMatchObject({
      failure: 'forbidden',
    });
    expect(translator.calls).toHaveLength(1);
  });
});

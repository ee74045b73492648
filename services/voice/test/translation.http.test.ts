import type { AccountState } from '@msg/contracts';
import { TranslationError, type Translator } from '@msg/translate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestVoice, type TestVoice } from './support.js';

const ENGLISH = 'Your parcel arrives tomorrow morning, please be at home to sign for it';
/** A text the fake provider refuses (403): a configuration error, failed at once. */
const REFUSED = 'The provider refuses to translate this sentence for us today';

const translations: { text: string; source: string; target: string }[] = [];
const translator: Translator = {
  async translate(text, { source, target }) {
    translations.push({ text, source, target });
    if (text === REFUSED) throw new TranslationError('forbidden', 'invalid API key', 403);
    return `Ditt paket kommer i morgon bitti (${target})`;
  },
};

let voice: TestVoice;
let acct: AccountState;
let n = 0;
const number = () => `+44207100${String(++n).padStart(4, '0')}`;

beforeAll(async () => {
  voice = await startTestVoice({ deps: { translator } });
  acct = await voice.publishAccount(voice.account());
});
afterAll(() => voice?.stop());

describe('text in another language than `language` (spec 4.6)', () => {
  it('when English text is sent for Swedish, then the translation is spoken and the call completes', async () => {
    const to = number();
    const res = await voice.send(acct, { to, text: ENGLISH, language: 'sv', play_count: 1 });
    expect(await voice.finished(acct, res.body.transaction_id)).toMatchObject({
      status: 'completed',
    });
    expect(translations).toContainEqual({ text: ENGLISH, source: 'en-GB', target: 'sv' });
    expect(voice.speech.requests).toContainEqual({
      text: 'Ditt paket kommer i morgon bitti (sv)',
      language: 'sv',
      gender: 'male',
    });
    expect(voice.sip.callsTo(to)).toHaveLength(1);
  });

  it('when the translator fails, then failed 5 after one attempt and no call', async () => {
    const to = number();
    const res = await voice.send(acct, { to, text: REFUSED, language: 'de', play_count: 1 });
    expect(await voice.finished(acct, res.body.transaction_id)).toMatchObject({
      status: 'failed',
      failure_code: 5,
    });
    expect(voice.sip.callsTo(to)).toHaveLength(0);
  });
});

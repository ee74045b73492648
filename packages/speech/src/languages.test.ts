import { describe, expect, it } from 'vitest';
import { canonicalLanguage, espeakVoice, LEGACY_LANGUAGES, VOICE_LANGUAGES } from './languages.js';

// Spec 2.6, copied here from the specification so the table is checked against it.
const SPEC_TAGS =
  'af ar bg bn ca cs da de el en-GB en-US es et fi fr gu he hi hr hu id it ja ko lt lv mr ms nl no pl pt-BR pt-PT ro ru sk sl sv ta te th tr uk vi zh';

describe('VOICE_LANGUAGES', () => {
  it('when listed, then they are exactly the 45 tags of spec 2.6', () => {
    expect([...VOICE_LANGUAGES].sort()).toEqual(SPEC_TAGS.split(' ').sort());
    expect(VOICE_LANGUAGES).toHaveLength(45);
  });
});

describe('canonicalLanguage', () => {
  it.each([
    ['en-gb', 'en-GB'],
    ['EN-US', 'en-US'],
    ['pt-br', 'pt-BR'],
    ['ZH', 'zh'],
    ['Sv', 'sv'],
  ])('when given %s, then it is %s', (tag, canonical) => {
    expect(canonicalLanguage(tag)).toBe(canonical);
  });

  it.each(['en', 'pt', 'sv-SE', 'xx', '', 'zh-TW'])(
    'when given %j (not a tag of 2.6), then it is unsupported',
    (tag) => {
      expect(canonicalLanguage(tag)).toBeUndefined();
    },
  );
});

describe('LEGACY_LANGUAGES', () => {
  it('when a legacy Lang code is looked up, then it names a supported canonical tag', () => {
    expect(Object.keys(LEGACY_LANGUAGES).sort()).toEqual(
      'SE NO DK FI EN DE FR ES IT NL PT BR PL RU GR'.split(' ').sort(),
    );
    expect(LEGACY_LANGUAGES).toMatchObject({
      SE: 'sv',
      EN: 'en-GB',
      BR: 'pt-BR',
      PT: 'pt-PT',
      GR: 'el',
      DK: 'da',
    });
    for (const tag of Object.values(LEGACY_LANGUAGES)) expect(canonicalLanguage(tag)).toBe(tag);
  });
});

describe('espeakVoice', () => {
  it('when the gender differs, then the eSpeak NG variant differs', () => {
    expect(espeakVoice('sv', 'male')).toBe('sv+m3');
    expect(espeakVoice('SV', 'female')).toBe('sv+f3');
    expect(espeakVoice('zh', 'female')).toBe('cmn+f3');
  });

  it('when the language is unsupported, then it throws', () => {
    expect(() => espeakVoice('xx', 'male')).toThrow(/unsupported language: xx/);
  });
});

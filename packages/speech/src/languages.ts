/**
 * The language tags of spec 2.6 and the eSpeak NG voice that speaks each of them.
 * Voice names are eSpeak NG's own (`espeak-ng --voices`); each was checked to load.
 */
const ESPEAK_VOICES = {
  af: 'af',
  ar: 'ar',
  bg: 'bg',
  bn: 'bn',
  ca: 'ca',
  cs: 'cs',
  da: 'da',
  de: 'de',
  el: 'el',
  'en-GB': 'en', // eSpeak NG's "en" is British English (gmw/en, language en-gb)
  'en-US': 'en-us',
  es: 'es',
  et: 'et',
  fi: 'fi',
  fr: 'fr',
  gu: 'gu',
  he: 'he',
  hi: 'hi',
  hr: 'hr',
  hu: 'hu',
  id: 'id',
  it: 'it',
  ja: 'ja',
  ko: 'ko',
  lt: 'lt',
  lv: 'lv',
  mr: 'mr',
  ms: 'ms',
  nl: 'nl',
  no: 'nb', // Norwegian Bokmål, the written standard behind the bare tag
  pl: 'pl',
  'pt-BR': 'pt-br',
  'pt-PT': 'pt',
  ro: 'ro',
  ru: 'ru',
  sk: 'sk',
  sl: 'sl',
  sv: 'sv',
  ta: 'ta',
  te: 'te',
  th: 'th',
  tr: 'tr',
  uk: 'uk',
  vi: 'vi',
  zh: 'cmn', // Mandarin
} as const satisfies Record<string, string>;

/** The 45 tags of spec 2.6, in canonical case. */
export const VOICE_LANGUAGES: readonly string[] = Object.freeze(Object.keys(ESPEAK_VOICES));

const byLowerCase = new Map(VOICE_LANGUAGES.map((tag) => [tag.toLowerCase(), tag]));

/** The canonical form of a tag of spec 2.6 given in any case; undefined when unsupported. */
export function canonicalLanguage(tag: string): string | undefined {
  return byLowerCase.get(tag.toLowerCase());
}

/** `Lang` of the legacy simple HTTP interface (spec 2.6) → canonical tag. */
export const LEGACY_LANGUAGES: Readonly<Record<string, string>> = Object.freeze({
  SE: 'sv',
  NO: 'no',
  DK: 'da',
  FI: 'fi',
  EN: 'en-GB',
  DE: 'de',
  FR: 'fr',
  ES: 'es',
  IT: 'it',
  NL: 'nl',
  PT: 'pt-PT',
  BR: 'pt-BR',
  PL: 'pl',
  RU: 'ru',
  GR: 'el',
});

export type SpeechGender = 'male' | 'female';

/**
 * eSpeak NG voice name with the variant that gives the gender: eSpeak NG's voices are male by
 * default; `+m3` / `+f3` are its stock male and female variants.
 */
export function espeakVoice(language: string, gender: SpeechGender): string {
  const tag = canonicalLanguage(language);
  if (tag === undefined) throw new RangeError(`unsupported language: ${language}`);
  const voice = ESPEAK_VOICES[tag as keyof typeof ESPEAK_VOICES];
  return `${voice}+${gender === 'female' ? 'f3' : 'm3'}`;
}

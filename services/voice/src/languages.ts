/**
 * The 45 language tags of spec 2.6 (43 languages; English and Portuguese by region), in their
 * canonical case. A local copy until @msg/speech's VOICE_LANGUAGES replaces it at merge.
 */
export const VOICE_LANGUAGES: readonly string[] = [
  'af',
  'ar',
  'bg',
  'bn',
  'ca',
  'cs',
  'da',
  'de',
  'el',
  'en-GB',
  'en-US',
  'es',
  'et',
  'fi',
  'fr',
  'gu',
  'he',
  'hi',
  'hr',
  'hu',
  'id',
  'it',
  'ja',
  'ko',
  'lt',
  'lv',
  'mr',
  'ms',
  'nl',
  'no',
  'pl',
  'pt-BR',
  'pt-PT',
  'ro',
  'ru',
  'sk',
  'sl',
  'sv',
  'ta',
  'te',
  'th',
  'tr',
  'uk',
  'vi',
  'zh',
];

const BY_LOWER = new Map(VOICE_LANGUAGES.map((tag) => [tag.toLowerCase(), tag]));

/** The canonical tag of `tag` (case-insensitive, 2.6); undefined when it is not supported. */
export function canonicalLanguage(tag: string): string | undefined {
  return BY_LOWER.get(tag.toLowerCase());
}

/** The legacy interface's `Lang` codes (2.6) and the tags they stand for; absent `Lang` is EN. */
export const LEGACY_LANGUAGES: Readonly<Record<string, string>> = {
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
};

/**
 * The languages a current LibreTranslate server with every Argos model installed lists on
 * GET /languages (ISO codes, as LibreTranslate shows them since 2025), and the older model codes
 * it still accepts in requests (`pb`, `zh`, `zt`).
 */
export const LANGUAGE_NAMES: Readonly<Record<string, string>> = Object.freeze({
  ar: 'Arabic',
  az: 'Azerbaijani',
  bg: 'Bulgarian',
  bn: 'Bengali',
  ca: 'Catalan',
  cs: 'Czech',
  da: 'Danish',
  de: 'German',
  el: 'Greek',
  en: 'English',
  eo: 'Esperanto',
  es: 'Spanish',
  et: 'Estonian',
  fa: 'Persian',
  fi: 'Finnish',
  fr: 'French',
  ga: 'Irish',
  he: 'Hebrew',
  hi: 'Hindi',
  hu: 'Hungarian',
  id: 'Indonesian',
  it: 'Italian',
  ja: 'Japanese',
  ko: 'Korean',
  lt: 'Lithuanian',
  lv: 'Latvian',
  ms: 'Malay',
  nb: 'Norwegian',
  nl: 'Dutch',
  pl: 'Polish',
  pt: 'Portuguese',
  'pt-BR': 'Portuguese (Brazil)',
  ro: 'Romanian',
  ru: 'Russian',
  sk: 'Slovak',
  sl: 'Slovenian',
  sq: 'Albanian',
  sv: 'Swedish',
  th: 'Thai',
  tl: 'Tagalog',
  tr: 'Turkish',
  uk: 'Ukrainian',
  'zh-Hans': 'Chinese',
  'zh-Hant': 'Chinese (traditional)',
});

const MODEL_ALIASES: Readonly<Record<string, string>> = {
  pb: 'pt-br',
  zh: 'zh-hans',
  zt: 'zh-hant',
};

const normal = (code: string) => MODEL_ALIASES[code.toLowerCase()] ?? code.toLowerCase();

/**
 * A request's language code → the listed code it names, case-insensitively and in either
 * spelling (pb = pt-BR); undefined if none.
 */
export function resolveLanguage(code: string, offered: readonly string[]): string | undefined {
  return offered.find((listed) => normal(listed) === normal(code));
}

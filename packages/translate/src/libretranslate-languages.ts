import { baseLanguage } from './language-detection.js';

/**
 * LibreTranslate codes to try for a tag of spec 2.6, best first. LibreTranslate has one English
 * and (since 2024) a Brazilian model `pb`, shown as `pt-BR` by newer servers; its Chinese is
 * `zh` (newer: `zh-Hans`) and its Norwegian is Bokmål, `nb`.
 */
const CANDIDATES: Readonly<Record<string, readonly string[]>> = {
  'en-GB': ['en'],
  'en-US': ['en'],
  'pt-PT': ['pt'],
  'pt-BR': ['pt-BR', 'pb', 'pt'],
  zh: ['zh', 'zh-Hans'],
  no: ['nb', 'no'],
};

/**
 * The code to send for `tag`: the first candidate the server lists (`available`, from
 * GET /languages), or the first candidate when the list is unknown. Undefined when the server
 * lists none of them.
 */
export function libreTranslateCode(
  tag: string,
  available?: ReadonlySet<string>,
): string | undefined {
  const candidates = CANDIDATES[tag] ?? [baseLanguage(tag)];
  if (available === undefined) return candidates[0];
  return candidates.find((code) => available.has(code.toLowerCase()));
}

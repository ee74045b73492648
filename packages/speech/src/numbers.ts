/**
 * Spec 4.6: clients write decimals with a dot. eSpeak NG reads "12.75" with its decimal word in
 * most languages, but in these it drops the dot and says "twelve seventy-five" (checked against
 * the phonemes of every tag of 2.6); they read the decimal comma, so the dot becomes one.
 */
export const DECIMAL_COMMA_ONLY: ReadonlySet<string> = new Set([
  'nl',
  'pl',
  'pt-BR',
  'pt-PT',
  'ro',
  'uk',
]);

/** Text as eSpeak NG must see it to read a dot between digits as a decimal point. */
export function normaliseDecimalPoint(text: string, language: string): string {
  return DECIMAL_COMMA_ONLY.has(language) ? text.replaceAll(/(?<=\d)\.(?=\d)/g, ',') : text;
}

/**
 * The simulator's dictionary: phrase pairs, used in both directions. Enough for demos and tests
 * of short notifications; anything it does not fully cover gets the marked rendering.
 */
const PAIRS: Readonly<Record<string, ReadonlyArray<readonly [string, string]>>> = {
  'en|sv': [
    ['hello', 'hej'],
    ['good morning', 'god morgon'],
    ['thank you', 'tack'],
    ['your', 'din'],
    ['code', 'kod'],
    ['is', 'är'],
    ['your appointment', 'din tid'],
    ['with the dentist', 'hos tandläkaren'],
    ['tomorrow', 'i morgon'],
    ['at', 'klockan'],
    ['today', 'i dag'],
    ['please call us', 'ring oss gärna'],
    ['call me', 'ring mig'],
    ['back', 'tillbaka'],
    ['your order', 'din beställning'],
    ['has been delivered', 'har levererats'],
    ['goodbye', 'hej då'],
    ['and', 'och'],
    ['welcome', 'välkommen'],
  ],
  'en|de': [
    ['hello', 'hallo'],
    ['good morning', 'guten morgen'],
    ['thank you', 'danke'],
    ['your', 'ihr'],
    ['code', 'code'],
    ['is', 'ist'],
    ['your appointment', 'ihr termin'],
    ['with the dentist', 'beim zahnarzt'],
    ['tomorrow', 'morgen'],
    ['at', 'um'],
    ['today', 'heute'],
    ['please call us', 'bitte rufen sie uns an'],
    ['call me', 'ruf mich'],
    ['back', 'zurück'],
    ['your order', 'ihre bestellung'],
    ['has been delivered', 'wurde geliefert'],
    ['goodbye', 'auf wiedersehen'],
    ['and', 'und'],
    ['welcome', 'willkommen'],
  ],
};

type PhraseTable = Map<string, string>;

function tableFor(source: string, target: string): PhraseTable | undefined {
  const forward = PAIRS[`${source}|${target}`];
  if (forward) return new Map(forward.map(([from, to]) => [from, to]));
  const backward = PAIRS[`${target}|${source}`];
  if (backward) return new Map(backward.map(([to, from]) => [from, to]));
  return undefined;
}

/** Words (letters, apostrophes) against everything else, which is copied as is (digits too). */
const TOKEN = /(\p{L}[\p{L}'’]*)|([^\p{L}]+)/gu;
const LONGEST_PHRASE = 4;

/**
 * Dictionary translation by longest phrase match. Undefined when the pair has no table or a
 * word is not covered: the caller then uses the marked rendering.
 */
export function translateWithPhrases(
  text: string,
  source: string,
  target: string,
): string | undefined {
  const table = tableFor(source, target);
  if (table === undefined) return undefined;
  const tokens = [...text.matchAll(TOKEN)].map((match) => ({
    text: match[0],
    word: match[1] !== undefined,
  }));
  const out: string[] = [];
  let i = 0;
  while (i < tokens.length) {
    const token = tokens[i];
    if (token === undefined) break;
    if (!token.word) {
      out.push(token.text);
      i += 1;
      continue;
    }
    const match = longestMatch(tokens, i, table);
    if (match === undefined) return undefined;
    out.push(sameCase(token.text, match.translation));
    i = match.end;
  }
  return out.join('');
}

function longestMatch(
  tokens: ReadonlyArray<{ text: string; word: boolean }>,
  start: number,
  table: PhraseTable,
): { translation: string; end: number } | undefined {
  for (let words = LONGEST_PHRASE; words >= 1; words -= 1) {
    // A phrase is words separated by single spaces.
    const end = start + words * 2 - 1;
    const slice = tokens.slice(start, end);
    if (slice.length !== words * 2 - 1) continue;
    if (slice.some((token, k) => (k % 2 === 0 ? !token.word : token.text !== ' '))) continue;
    const translation = table.get(
      slice
        .map((token) => token.text)
        .join('')
        .toLowerCase(),
    );
    if (translation !== undefined) return { translation, end };
  }
  return undefined;
}

function sameCase(original: string, translation: string): string {
  const first = original.charAt(0);
  return first !== first.toLowerCase()
    ? translation.charAt(0).toUpperCase() + translation.slice(1)
    : translation;
}

/** What the simulator answers for text its dictionary does not cover: deterministic and visible. */
export function markedRendering(text: string, source: string, target: string): string {
  return `[${source}→${target}] ${text}`;
}

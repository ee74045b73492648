import { canonicalLanguage, VOICE_LANGUAGES } from '@msg/speech';
// The "small" n-gram database: as accurate as "large" on short texts in our comparison (README)
// at a third of the load time and memory.
import { eld as sharedEld } from 'eld/small';

export interface LanguageDetection {
  /** A tag of spec 2.6; English and Portuguese come as en-GB and pt-PT (see baseLanguage). */
  language: string;
  /** The detector's score for that language, 0..1. */
  confidence: number;
}

export interface DetectOptions {
  /**
   * The language the client declared (a tag of spec 2.6). It wins when it scores close to the
   * best: short texts in related languages (sv/da/no, ru/uk/bg, fi/et, pt/it) score alike.
   */
  expected?: string;
}

/** A detector: undefined means "cannot tell", which callers read as "do not translate". */
export type LanguageDetector = (
  text: string,
  options?: DetectOptions,
) => LanguageDetection | undefined;

/** Below this many letters a text says too little about its language ("OK", "Hej", codes). */
export const MIN_LETTERS = 4;
/**
 * The expected language wins when its score is at least this share of the best score. Every
 * wrong answer on our sample one-liners (sv→da, fi→et, ru→bg, pt→it, "Hello world"→no) scored
 * the right language above 0.92 of the winner, while text in an unrelated language scores the
 * expected one below 0.85. Erring towards "same language" is the safe side: a false "other"
 * would send correct text through a translation that may alter it.
 */
export const CLOSE_SCORE_RATIO = 0.9;

/** The language without its region: en-GB → en, pt-BR → pt; other tags are already bare. */
export function baseLanguage(tag: string): string {
  return tag.split('-')[0]?.toLowerCase() ?? tag;
}

// eld speaks ISO 639-1 without regions; one tag per base language (the legacy defaults EN → en-GB,
// PT → pt-PT). eld has no model for af and id; those are listed in UNDETECTABLE_LANGUAGES.
const tagOfBase = new Map<string, string>();
for (const tag of VOICE_LANGUAGES) {
  const base = baseLanguage(tag);
  if (!tagOfBase.has(base)) tagOfBase.set(base, canonicalLanguage(tag) ?? tag);
}
tagOfBase.set('en', 'en-GB');
tagOfBase.set('pt', 'pt-PT');

/**
 * Languages the detector has no model for, with the close relative it reports instead
 * (Afrikaans reads as Dutch, Indonesian as Malay). prepareSpeechText never translates between
 * such a pair: the client's declared language wins.
 */
export const UNDETECTABLE_LANGUAGES: Readonly<Record<string, string>> = Object.freeze({
  af: 'nl',
  id: 'ms',
});

// An instance of our own: the subset setting must not leak into other users of eld.
const eld = sharedEld.newInstance();
eld.setLanguageSubset([...tagOfBase.keys()].filter((base) => !(base in UNDETECTABLE_LANGUAGES)));

const LETTER = /\p{L}/gu;

const rounded = (score: number) => Math.round(score * 1000) / 1000;

/**
 * Detects the language of `text` offline among the tags of spec 2.6. Undefined for text that is
 * too short (fewer than MIN_LETTERS letters, e.g. numbers only) or that the detector itself
 * calls unreliable. With `expected`, that tag (region included) is returned when it scores close
 * to the best (CLOSE_SCORE_RATIO).
 */
export function detectLanguage(
  text: string,
  options: DetectOptions = {},
): LanguageDetection | undefined {
  if ((text.match(LETTER)?.length ?? 0) < MIN_LETTERS) return undefined;
  const result = eld.detect(text);
  const language = tagOfBase.get(result.language);
  if (language === undefined || !result.isReliable()) return undefined;
  const scores = result.getScores();
  const best = scores[result.language] ?? 0;
  if (best <= 0) return undefined;
  const expected = options.expected;
  if (expected !== undefined) {
    const expectedScore = scores[baseLanguage(expected)] ?? 0;
    if (expectedScore >= best * CLOSE_SCORE_RATIO) {
      return { language: expected, confidence: rounded(expectedScore) };
    }
  }
  return { language, confidence: rounded(best) };
}

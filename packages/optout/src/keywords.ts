/**
 * Stop and start words of inbound SMS (Twilio Advanced Opt-Out is the model). The rule, the same
 * for the platform's words and an account's own:
 *
 * - the WHOLE text is the keyword: "STOP", " stop ", "Stop!" match; "stop please", "please stop"
 *   and "STOP 2" do not (a reply that merely contains the word is a conversation, not a request);
 * - case-insensitive (Unicode upper case, so "avsluta", "Avsluta", "AVSLUTA" are one word), after
 *   trimming, with runs of white space read as one space and trailing . ! ? removed.
 *
 * Start words always win over stop words: an account cannot make START opt someone out (admin
 * refuses such a word; the classifier checks start words first anyway).
 */

/** Opt the sender out of the account's messages. STOPP and AVSLUTA are the Swedish words. */
export const PLATFORM_STOP_WORDS = ['STOP', 'STOPP', 'AVSLUTA', 'UNSUBSCRIBE'] as const;

/** Opt the sender in again. STARTA is the Swedish imperative (START reads the same in Swedish). */
export const PLATFORM_START_WORDS = ['START', 'UNSTOP', 'STARTA'] as const;

/** Longest keyword an account may add (after normalising). */
export const MAX_KEYWORD_LENGTH = 40;

/** Most keywords one account may add. */
export const MAX_ACCOUNT_KEYWORDS = 20;

export type KeywordKind = 'stop' | 'start';

/** What an inbound text asks for, with the keyword as normalised. */
export interface KeywordMatch {
  kind: KeywordKind;
  keyword: string;
}

/** The form texts and keywords are compared in (see the rule above). */
export function normaliseKeyword(text: string): string {
  return text
    .normalize('NFC')
    .trim()
    .replace(/[.!?]+$/u, '')
    .trim()
    .replace(/\s+/gu, ' ')
    .toUpperCase();
}

/**
 * Whether `text` could be a keyword of some account: short enough once normalised. A consumer of
 * inbound SMS checks this before it spends a query on finding the account (whose own words it
 * does not know yet).
 */
export function mayBeKeyword(text: string): boolean {
  if (text.length > MAX_KEYWORD_LENGTH * 4) return false;
  const keyword = normaliseKeyword(text);
  return keyword !== '' && keyword.length <= MAX_KEYWORD_LENGTH;
}

const START = new Set<string>(PLATFORM_START_WORDS);
const STOP = new Set<string>(PLATFORM_STOP_WORDS);

/**
 * Whether an inbound SMS is a stop word (the platform's or one of `accountWords`) or a start word;
 * null for anything else.
 */
export function classifyInbound(
  text: string,
  accountWords: readonly string[] = [],
): KeywordMatch | null {
  // Longer texts cannot be a keyword: spare the normalising of every long reply.
  if (text.length > MAX_KEYWORD_LENGTH * 4) return null;
  const keyword = normaliseKeyword(text);
  if (keyword === '') return null;
  if (START.has(keyword)) return { kind: 'start', keyword };
  if (STOP.has(keyword) || accountWords.some((word) => normaliseKeyword(word) === keyword)) {
    return { kind: 'stop', keyword };
  }
  return null;
}

/** Why an account's own keyword is refused, or null when it is acceptable. */
export function accountKeywordProblem(word: string): { type: string; msg: string } | null {
  const keyword = normaliseKeyword(word);
  if (keyword === '') return { type: 'empty', msg: 'must contain a word' };
  if (keyword.length > MAX_KEYWORD_LENGTH) {
    return { type: 'maxLength', msg: `at most ${MAX_KEYWORD_LENGTH} characters` };
  }
  if (START.has(keyword)) {
    return {
      type: 'start_word',
      msg: `${keyword} is a start word (${PLATFORM_START_WORDS.join(', ')}) and cannot stop`,
    };
  }
  return null;
}

import type { Logger } from '@msg/logger';
import type { SpeechMarkup } from '@msg/speech';
import {
  baseLanguage,
  type LanguageDetector,
  prepareSpeechText,
  TranslationError,
  type Translator,
} from '@msg/translate';
import type { ClaimedAttempt } from './attempt-store.js';
import type { SpeechRequest, ValidateMarkup } from './ports.js';

export interface SpeechInputOptions {
  validateMarkup: ValidateMarkup;
  /** Absent (no VOICE_TRANSLATE_URL): text in another language is spoken as given. */
  translator?: Translator;
  /** Default @msg/translate detectLanguage; tests inject one. */
  detector?: LanguageDetector;
  logger: Logger;
}

/** Failures that may pass on their own (packages/translate/README.md): tried once more. */
const TRANSIENT = new Set(['rate_limited', 'timeout', 'unavailable']);

/**
 * The legacy document as plain text when it obeys nothing (no <break>, every run at the voice's
 * own prosody), so it can be translated like REST text; undefined when it has markup to obey.
 */
function plainTextOf(markup: SpeechMarkup): string | undefined {
  let text = '';
  for (const part of markup.parts) {
    if (part.kind === 'break') return undefined;
    const { rate, pitch, volume } = part.prosody;
    if (rate !== 100 || pitch !== 100 || volume !== 100) return undefined;
    text += part.text;
  }
  return text;
}

/**
 * What the speech engine renders for an attempt (spec 4.6). A legacy Msg with <break>/<prosody>
 * is spoken as its parsed document, untranslated (translation would lose the marks' positions).
 * Other text is translated into the message's language when the detector finds another language
 * and a translator is configured; without a translator it is spoken as given and logged (never
 * the text). Translation failures throw TranslationError (the caller fails the message, code 5).
 */
export async function speechRequestOf(
  claimed: ClaimedAttempt,
  options: SpeechInputOptions,
): Promise<SpeechRequest> {
  const { language, gender, transactionId } = claimed;
  let text = claimed.text;
  if (claimed.markup !== null) {
    const parsed = options.validateMarkup(claimed.markup);
    if (!parsed.ok) throw new Error(`stored markup no longer parses: ${parsed.error}`);
    const plain = plainTextOf(parsed.markup);
    if (plain === undefined) return { text, language, gender, markup: parsed.markup };
    text = plain;
  }
  const prepare = () =>
    prepareSpeechText({
      text,
      language,
      ...(options.detector && { detector: options.detector }),
      ...(options.translator && { translator: options.translator }),
    });
  const prepared = await prepare().catch((err) => {
    if (err instanceof TranslationError && TRANSIENT.has(err.failure)) return prepare();
    throw err;
  });
  if (prepared.translated) {
    options.logger.info('voice text translated', {
      transactionId,
      from: prepared.detected,
      to: language,
    });
  } else if (
    prepared.detected !== undefined &&
    baseLanguage(prepared.detected) !== baseLanguage(language)
  ) {
    options.logger.info('voice text spoken untranslated', {
      transactionId,
      language,
      detected: prepared.detected,
      translator: options.translator ? 'configured' : 'none',
    });
  }
  return { text: prepared.text, language, gender };
}

import {
  baseLanguage,
  detectLanguage,
  type LanguageDetector,
  UNDETECTABLE_LANGUAGES,
} from './language-detection.js';
import type { Translator } from './translator.js';

export interface PrepareSpeechTextOptions {
  text: string;
  /** The requested language, a canonical tag of spec 2.6. */
  language: string;
  /** Default: detectLanguage. */
  detector?: LanguageDetector;
  /** Absent: text in another language is spoken as given (README). */
  translator?: Translator;
}

export interface SpeechText {
  /** What to speak in `language`'s voice. */
  text: string;
  translated: boolean;
  /** The detected language (with the requested region when the base language matches). */
  detected?: string;
}

/**
 * Spec 4.6: "Text in another language than `language` is translated before speech". Translates
 * when the detector is sure the text is in another language and a translator is configured;
 * otherwise returns the text untouched. Translation failures propagate as TranslationError.
 */
export async function prepareSpeechText({
  text,
  language,
  detector = detectLanguage,
  translator,
}: PrepareSpeechTextOptions): Promise<SpeechText> {
  const detection = detector(text, { expected: language });
  if (detection === undefined) return { text, translated: false };
  const requested = baseLanguage(language);
  const found = baseLanguage(detection.language);
  if (found === requested) return { text, translated: false, detected: language };
  // af reads as nl, id as ms: the detector cannot disagree with the client here.
  if (UNDETECTABLE_LANGUAGES[requested] === found || translator === undefined) {
    return { text, translated: false, detected: detection.language };
  }
  const translatedText = await translator.translate(text, {
    source: detection.language,
    target: language,
  });
  return { text: translatedText, translated: true, detected: detection.language };
}

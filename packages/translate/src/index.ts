export {
  baseLanguage,
  CLOSE_SCORE_RATIO,
  type DetectOptions,
  detectLanguage,
  type LanguageDetection,
  type LanguageDetector,
  MIN_LETTERS,
  UNDETECTABLE_LANGUAGES,
} from './language-detection.js';
export { libreTranslateCode } from './libretranslate-languages.js';
export {
  type PrepareSpeechTextOptions,
  prepareSpeechText,
  type SpeechText,
} from './prepare-speech-text.js';
export { TranslationError, type TranslationFailure } from './translation-error.js';
export { createTranslator, type Translator, type TranslatorOptions } from './translator.js';

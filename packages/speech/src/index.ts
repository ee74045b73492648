export {
  canonicalLanguage,
  LEGACY_LANGUAGES,
  type SpeechGender,
  VOICE_LANGUAGES,
} from './languages.js';
export {
  type MarkupPart,
  type ParsedMarkup,
  type Prosody,
  parseSpeechMarkup,
  type SpeechMarkup,
} from './markup.js';
export {
  createSpeechEngine,
  type SpeechAudio,
  type SpeechEngine,
  type SpeechEngineOptions,
  SpeechError,
  type SpeechRequest,
} from './speech-engine.js';

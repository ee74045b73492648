export type { CallOutcome, CallRequest, SipCaller, SpeechEngine } from './calls/ports.js';
export { loadVoiceConfig, type VoiceConfig, voiceSettings } from './config.js';
export { VOICE_SCHEMA } from './schema.js';
export {
  startVoiceService,
  VOICE_MIGRATIONS,
  type VoiceDependencies,
  type VoiceService,
  voiceService,
  voiceTopics,
} from './service.js';
export { deployedDependencies } from './wiring.js';

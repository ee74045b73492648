/**
 * The ports the call worker uses, as @msg/speech and @msg/sip-call define them. The service takes
 * them injected (VoiceDependencies, src/service.ts): the deployed process builds the real ones
 * (src/wiring.ts), tests pass fakes.
 */

export type { CallOutcome, CallRequest, SipCaller } from '@msg/sip-call';
export type {
  ParsedMarkup as MarkupCheck,
  SpeechAudio,
  SpeechEngine,
  SpeechGender,
  SpeechMarkup,
  SpeechRequest,
} from '@msg/speech';

import type { ParsedMarkup } from '@msg/speech';

/** Checks the legacy `Msg` strictly (@msg/speech parseSpeechMarkup); a refusal is the interface's 400. */
export type ValidateMarkup = (msg: string) => ParsedMarkup;

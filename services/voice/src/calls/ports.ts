/**
 * The two ports the call worker uses, copied verbatim from the interfaces of @msg/speech and
 * @msg/sip-call (/work/voice-shared.md). The voice service does not import those packages yet:
 * the lead wires the real ones into `startVoiceService(config, runtime, { speech, sip, markup })`
 * (src/service.ts, VoiceDependencies) at merge; tests inject fakes.
 */

// --- @msg/speech (subset) ---
export type SpeechGender = 'male' | 'female';
export type SpeechMarkup = unknown; // speech-owned structure
export interface SpeechRequest {
  text: string; // plain text (REST: markup is read as text, never obeyed)
  language: string; // a canonical tag
  gender: SpeechGender;
  markup?: SpeechMarkup; // legacy only: the parsed <break>/<prosody> document (replaces text)
}
export interface SpeechAudio {
  mulaw: Buffer;
  sampleRate: 8000;
  durationMs: number;
} // G.711 mu-law mono
export interface SpeechEngine {
  synthesize(request: SpeechRequest): Promise<SpeechAudio>;
  close(): Promise<void>;
}

// --- @msg/sip-call ---
export interface CallRequest {
  from: string; // caller ID, E.164
  to: string; // callee, E.164
  audio: Buffer; // G.711 mu-law 8 kHz, played playCount times (RTP PT 0, 20 ms frames)
  playCount: number; // 1..10
  ringTimeoutMs: number; // CANCEL after this without a final answer
  machineDetection: boolean;
}
export type CallOutcome =
  | {
      kind: 'answered';
      answeredBy: 'human' | 'machine' | 'unknown';
      durationSeconds: number;
      listenedSeconds: number;
    }
  | { kind: 'busy' } // 486 / 600
  | { kind: 'no_answer' } // ring timeout, we cancelled; or 408/480
  | { kind: 'rejected'; status: number } // 603 and other final refusals (4xx/5xx/6xx)
  | { kind: 'error'; message: string }; // our side or transport failed
export interface SipCaller {
  call(request: CallRequest, signal?: AbortSignal): Promise<CallOutcome>;
  close(): Promise<void>;
}

// --- the legacy interface's markup check (@msg/speech parseSpeechMarkup at merge) ---
export type MarkupCheck = { ok: true; markup: SpeechMarkup } | { ok: false; error: string };
/** Checks the legacy `Msg` strictly; a refusal is the interface's 400. */
export type ValidateMarkup = (msg: string) => MarkupCheck;

import type {
  CallOutcome,
  CallRequest,
  SipCaller,
  SpeechEngine,
  SpeechRequest,
} from '../src/calls/ports.js';

/**
 * A SIP caller that answers each dialled number by a script (one outcome per call, the last
 * repeated), default answered by a human; it records every call it was asked to place.
 */
export function fakeSipCaller(defaultOutcome: CallOutcome = answered(12, 9)) {
  const scripts = new Map<string, CallOutcome[]>();
  const calls: CallRequest[] = [];
  let gate: Promise<void> | undefined;
  const caller: SipCaller & {
    calls: CallRequest[];
    script(to: string, ...outcomes: CallOutcome[]): void;
    callsTo(to: string): CallRequest[];
    /** Calls wait until the promise resolves (a call in progress across a stop). */
    holdCalls(until: Promise<void>): void;
  } = {
    calls,
    script(to, ...outcomes) {
      scripts.set(to, outcomes);
    },
    callsTo: (to) => calls.filter((c) => c.to === to),
    holdCalls(until) {
      gate = until;
    },
    async call(request) {
      calls.push(request);
      if (gate) await gate;
      const script = scripts.get(request.to);
      const made = calls.filter((c) => c.to === request.to).length;
      return script?.[Math.min(made, script.length) - 1] ?? defaultOutcome;
    },
    async close() {},
  };
  return caller;
}

export const answered = (durationSeconds: number, listenedSeconds: number): CallOutcome => ({
  kind: 'answered',
  answeredBy: 'human',
  durationSeconds,
  listenedSeconds,
});

/** A speech engine that renders 10 ms of silence per character, or fails for `failing` texts. */
export function fakeSpeech(failing: (request: SpeechRequest) => boolean = () => false) {
  const requests: SpeechRequest[] = [];
  const engine: SpeechEngine & { requests: SpeechRequest[] } = {
    requests,
    async synthesize(request) {
      requests.push(request);
      if (failing(request)) throw new Error('synthesis failed');
      const samples = request.text.length * 80;
      return { mulaw: Buffer.alloc(samples, 0xff), sampleRate: 8000, durationMs: samples / 8 };
    },
    async close() {},
  };
  return engine;
}

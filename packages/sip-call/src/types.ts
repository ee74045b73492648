// The interface of @msg/sip-call, as agreed with the voice service (work/voice-shared.md).
import type { AmdParameters } from './amd.js';
import type { RtpStats } from './rtp/stream.js';

export interface SipTrunk {
  host: string;
  port: number;
  username?: string;
  password?: string;
} // UDP

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

/** What one call did on the wire, for tests, benchmarks and metrics. */
export interface CallReport {
  callId: string;
  outcome: CallOutcome;
  rtp: RtpStats;
}

export interface SipCallerOptions {
  trunk: SipTrunk;
  /** Address we bind and announce in Via, Contact and SDP; default 127.0.0.1. */
  localAddress?: string;
  /** SIP UDP port; 0 (default) = a free port. */
  sipPort?: number;
  /** RTP port range, one even port per call; [0, 0] (default) = free ports. */
  rtpPorts?: [number, number];
  /** Answering-machine detection parameters over DEFAULT_AMD_PARAMETERS. */
  amd?: Partial<AmdParameters>;
  /** Called once per call when it has ended. */
  onCallEnded?: (report: CallReport) => void;
}

import type { HeardSummary } from './audio-analysis.js';
import { type Behaviour, numberKey, suffixBehaviour } from './behaviours.js';

export type CallOutcome =
  | 'ringing'
  | 'answered'
  | 'completed'
  | 'busy'
  | 'rejected'
  | 'unavailable'
  | 'cancelled'
  | 'failed';

/** One INVITE that passed authentication, as the control API reports it. */
export interface CallRecord {
  id: string;
  to: string;
  from: string;
  behaviour: Behaviour;
  /** `ringing` and `answered` while the call lasts; the rest are final. */
  outcome: CallOutcome;
  /** The SIP status of the final answer to the INVITE, once sent. */
  finalStatus?: number;
  /** Who sent the BYE of an answered call. */
  endedBy?: 'caller' | 'callee';
  startedAt: string;
  answeredAt?: string;
  endedAt?: string;
  /** PCMU packets received from the caller. */
  rtpPackets: number;
  /** Milliseconds of audio in them. */
  audioMs: number;
  /** RTP packets the callee sent (prompt, then silence). */
  rtpPacketsSent: number;
  heard?: HeardSummary;
  /** The received audio as 16-bit PCM 8 kHz WAV, written when the call ends with audio. */
  wavFile?: string;
}

/** Rules, per-number call counts and the call log of one callee. */
export class CalleeState {
  readonly #rules = new Map<string, Behaviour>();
  readonly #counts = new Map<string, number>();
  readonly #records = new Map<string, CallRecord>();

  constructor(readonly defaultBehaviour: Behaviour) {}

  setRule(number: string, behaviour: Behaviour): void {
    this.#rules.set(numberKey(number), behaviour);
  }

  deleteRule(number: string): boolean {
    return this.#rules.delete(numberKey(number));
  }

  rules(): Record<string, Behaviour> {
    return Object.fromEntries(this.#rules);
  }

  /** A rule set through the API, else the number's suffix rule, else the default. */
  behaviourFor(number: string): Behaviour {
    return this.#rules.get(numberKey(number)) ?? suffixBehaviour(number) ?? this.defaultBehaviour;
  }

  /** Counts a call to `number` and returns how many came before it. */
  countCall(number: string): number {
    const key = numberKey(number);
    const before = this.#counts.get(key) ?? 0;
    this.#counts.set(key, before + 1);
    return before;
  }

  add(record: CallRecord): void {
    this.#records.set(record.id, record);
  }

  calls(): CallRecord[] {
    return [...this.#records.values()].map((record) => structuredClone(record));
  }

  call(id: string): CallRecord | undefined {
    const record = this.#records.get(id);
    return record && structuredClone(record);
  }

  /** Forgets the call log and the per-number counts (busy-then-human starts over). */
  clearCalls(): void {
    this.#records.clear();
    this.#counts.clear();
  }
}

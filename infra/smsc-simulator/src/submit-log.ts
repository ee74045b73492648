import type { RecordedSubmit } from './smsc-types.js';

/** The default number of recorded submits the simulator keeps (GET /submits). */
export const DEFAULT_MAX_RECORDED_SUBMITS = 100_000;

/**
 * The submits the simulator recorded, the newest `capacity` of them: a long run (a batch of a
 * million recipients) must not grow the simulator without bound, so the oldest are forgotten
 * (GET /stats still counts every one). Submits are numbered from 0 since start or reset, so a
 * reader polling a long run asks only for what is new (`list(from)`).
 */
export interface SubmitLog {
  add(submit: RecordedSubmit): void;
  /** The kept submits numbered `from` or later, oldest first. */
  list(from?: number): RecordedSubmit[];
  /** Submits recorded since start or reset, forgotten ones included. */
  total(): number;
  clear(): void;
}

export function createSubmitLog(capacity = DEFAULT_MAX_RECORDED_SUBMITS): SubmitLog {
  if (!Number.isInteger(capacity) || capacity < 1) {
    throw new RangeError(`capacity: expected a positive integer, got ${capacity}`);
  }
  // A ring: submit number n lives at n % capacity while it is among the newest `capacity`.
  let ring: RecordedSubmit[] = [];
  let count = 0;
  return {
    add(submit) {
      ring[count % capacity] = submit;
      count++;
    },
    list(from = 0) {
      const oldestKept = Math.max(0, count - capacity);
      const kept: RecordedSubmit[] = [];
      for (let n = Math.max(from, oldestKept); n < count; n++)
        kept.push(ring[n % capacity] as RecordedSubmit);
      return kept;
    },
    total: () => count,
    clear() {
      ring = [];
      count = 0;
    },
  };
}

import { defaultStatus, type HlrStatus, isHlrStatus } from './subscribers.js';

/** The simulator's mutable state: status overrides and lookup counts. */
export interface HlrState {
  /** Lookups answered (200 or 503), in all or for one number. */
  queries(msisdn?: string): number;
  recordQuery(msisdn: string): void;
  statusOf(msisdn: string): HlrStatus;
  /** Overrides the answer for one number; throws RangeError on an unknown status. */
  setStatus(msisdn: string, status: string): void;
  /** Forgets every override and every count. */
  reset(): void;
}

export function createHlrState(): HlrState {
  const overrides = new Map<string, HlrStatus>();
  const counts = new Map<string, number>();
  let total = 0;
  return {
    queries: (msisdn) => (msisdn === undefined ? total : (counts.get(msisdn) ?? 0)),
    recordQuery(msisdn) {
      total += 1;
      counts.set(msisdn, (counts.get(msisdn) ?? 0) + 1);
    },
    statusOf: (msisdn) => overrides.get(msisdn) ?? defaultStatus(msisdn),
    setStatus(msisdn, status) {
      if (!isHlrStatus(status)) throw new RangeError(`unknown status: ${status}`);
      overrides.set(msisdn, status);
    },
    reset() {
      overrides.clear();
      counts.clear();
      total = 0;
    },
  };
}

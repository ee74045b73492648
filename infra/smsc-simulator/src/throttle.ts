/**
 * Sliding one-second window of accepted submits, one per bind: an SMSC's throughput limit is per
 * connection, and a sliding window (not a fixed second) makes "N per second" hold at any instant.
 */
export interface SubmitWindow {
  /** Counts a submit and returns true if it fits under perSecond; false means throttle it. */
  tryAccept(perSecond: number | null, nowMs: number): boolean;
}

export function createSubmitWindow(): SubmitWindow {
  const accepted: number[] = [];
  let head = 0;
  return {
    tryAccept(perSecond, nowMs) {
      if (perSecond === null) return true;
      while (head < accepted.length && (accepted[head] ?? 0) <= nowMs - 1000) head++;
      // Compact now and then so the array does not grow for the life of the bind.
      if (head > 1024) {
        accepted.splice(0, head);
        head = 0;
      }
      if (accepted.length - head >= perSecond) return false;
      accepted.push(nowMs);
      return true;
    },
  };
}

/** One request as the simulator saw it, for tests and the control API. */
export interface ReceivedRequest {
  at: string;
  method: string;
  path: string;
  status: number;
  q?: unknown;
  source?: unknown;
  target?: unknown;
  format?: unknown;
  /** Whether an api_key was sent (the key itself is never kept). */
  apiKey: boolean;
}

/** A fault applied to the next `count` POST /translate requests. */
export interface Fault {
  /** Answer with this status and `{error}` instead of translating (e.g. 500, 429). */
  status?: number;
  error?: string;
  /** Wait this long before answering (to test client timeouts). */
  delayMs?: number;
  count: number;
}

export interface SimulatorState {
  record(request: ReceivedRequest): void;
  requests(): ReceivedRequest[];
  setFault(fault: Fault | undefined): void;
  /** The fault for the request now arriving, counting it down. */
  takeFault(): Fault | undefined;
  /** True when one more request this minute exceeds the limit. */
  overLimit(limitPerMinute: number | undefined, now: number): boolean;
  reset(): void;
}

export function createSimulatorState(): SimulatorState {
  let received: ReceivedRequest[] = [];
  let fault: Fault | undefined;
  let window = { start: 0, count: 0 };
  return {
    record: (request) => {
      received.push(request);
    },
    requests: () => [...received],
    setFault: (next) => {
      fault = next && next.count > 0 ? { ...next } : undefined;
    },
    takeFault: () => {
      if (fault === undefined) return undefined;
      const current = fault;
      fault = current.count > 1 ? { ...current, count: current.count - 1 } : undefined;
      return current;
    },
    overLimit: (limit, now) => {
      if (limit === undefined) return false;
      if (now - window.start >= 60_000) window = { start: now, count: 0 };
      window.count += 1;
      return window.count > limit;
    },
    reset: () => {
      received = [];
      fault = undefined;
      window = { start: 0, count: 0 };
    },
  };
}

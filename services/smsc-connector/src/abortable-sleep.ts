/** Thrown to the handler when the connector stops while it waits (the event stays uncommitted). */
export class ShuttingDownError extends Error {
  override name = 'ShuttingDownError';
  constructor() {
    super('the smsc-connector is stopping');
  }
}

/**
 * Everyone waiting on one stop signal, behind a single 'abort' listener. Up to
 * SUBMIT_CONCURRENCY handlers wait at once (for a token, a bind, a throttling pause); one
 * listener each would pass the EventTarget's limit of 10 and print MaxListenersExceededWarning.
 */
const waitersBySignal = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Calls `onAbort` once when `signal` aborts, unless the returned function is called first (call
 * it when the wait ends, so finished waits do not pile up).
 */
export function whenAborted(signal: AbortSignal, onAbort: () => void): () => void {
  if (signal.aborted) {
    onAbort();
    return () => false;
  }
  let waiters = waitersBySignal.get(signal);
  if (!waiters) {
    const fresh = new Set<() => void>();
    waiters = fresh;
    waitersBySignal.set(signal, fresh);
    signal.addEventListener(
      'abort',
      () => {
        for (const wake of fresh) wake();
        fresh.clear();
      },
      { once: true },
    );
  }
  const set = waiters;
  set.add(onAbort);
  return () => set.delete(onAbort);
}

/** Sleeps `ms`, or throws ShuttingDownError as soon as `signal` aborts. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(new ShuttingDownError());
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      forget();
      resolve();
    }, ms);
    const forget = whenAborted(signal, () => {
      clearTimeout(timer);
      reject(new ShuttingDownError());
    });
  });
}

import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Runs `work` now and then again `intervalMs` after each run ends, until stopped: the loop of
 * every sweeper that claims its rows with FOR UPDATE SKIP LOCKED on each replica. A failed run is
 * handed to `onError` and the next one follows after the interval; `stop` waits for the run in
 * progress to end. The answer fits `afterListen` (anything with `stop()`).
 */
export function repeatEvery(
  intervalMs: number,
  work: () => Promise<void>,
  onError: (error: unknown) => void,
): { stop(): Promise<void> } {
  const stopped = new AbortController();
  const running = (async () => {
    while (!stopped.signal.aborted) {
      try {
        await work();
      } catch (error) {
        onError(error);
      }
      await sleep(intervalMs, undefined, { signal: stopped.signal }).catch(() => {});
    }
  })();
  return {
    async stop() {
      stopped.abort();
      await running;
    },
  };
}

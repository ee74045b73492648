/**
 * Runs the messages of one partition batch with up to `concurrency` handlers at once, and
 * reports how far the batch is finished without gaps — the only point up to which an offset may
 * be committed, so that a crash re-delivers everything unfinished (at-least-once).
 *
 * Two messages with the same key never run at once, and a later one never starts before an
 * earlier one with its key: per-key order is kept. A message whose key is busy does not hold up
 * the messages behind it with other keys (within `lookahead`).
 */
export interface OrderedWindowOptions<T> {
  items: readonly T[];
  concurrency: number;
  /** Messages with the same non-null key are handled one after the other, in order. */
  keyOf(item: T): string | null;
  /**
   * Handles one item: true when it is finished (handled or dead-lettered, so it may be
   * committed), false when it was left unfinished because the subscription is stopping.
   */
  handle(item: T): Promise<boolean>;
  /** Called with the index of the last item of the finished prefix, whenever it grows. */
  onFinishedPrefix(lastIndex: number): void;
  /** Asked before each start; false (stopping, partition revoked) starts nothing more. */
  canStart(): boolean;
  /** How many unstarted items to look through for one whose key is free. Default 1000. */
  lookahead?: number;
}

export interface OrderedWindowResult {
  /** Items finished without a gap from the start of the batch. */
  finishedPrefix: number;
  /** True when every item was finished. */
  complete: boolean;
}

/**
 * Resolves once nothing is running any more: every item finished, or the window stopped
 * starting items (canStart false, an item left unfinished, or a handler threw) and the ones in
 * flight settled. A handler that threw makes it reject with that error after the others settled.
 */
export async function runOrderedWindow<T>(
  opts: OrderedWindowOptions<T>,
): Promise<OrderedWindowResult> {
  const { items, keyOf } = opts;
  const concurrency = Math.max(1, Math.floor(opts.concurrency));
  const lookahead = opts.lookahead ?? 1_000;
  const started = new Array<boolean>(items.length).fill(false);
  const finished = new Array<boolean>(items.length).fill(false);
  const busyKeys = new Set<string>();
  const running = new Set<Promise<void>>();
  let firstUnstarted = 0;
  let prefix = 0;
  let halted = false;
  let failure: { error: unknown } | undefined;

  /** The first unstarted item whose key is neither running nor held by an earlier waiting item. */
  function pick(): number | undefined {
    while (firstUnstarted < items.length && started[firstUnstarted]) firstUnstarted++;
    const heldKeys = new Set<string>();
    let looked = 0;
    for (let i = firstUnstarted; i < items.length && looked < lookahead; i++) {
      if (started[i]) continue;
      looked++;
      const item = items[i];
      if (item === undefined) continue;
      const key = keyOf(item);
      if (key === null) return i;
      if (!busyKeys.has(key) && !heldKeys.has(key)) return i;
      heldKeys.add(key);
    }
    return undefined;
  }

  function fail(error: unknown): void {
    halted = true;
    failure ??= { error };
  }

  function start(index: number, item: T): void {
    started[index] = true;
    const key = keyOf(item);
    if (key !== null) busyKeys.add(key);
    const run = opts
      .handle(item)
      .then(
        (done) => {
          if (!done) {
            halted = true;
            return;
          }
          finished[index] = true;
          const before = prefix;
          while (prefix < items.length && finished[prefix]) prefix++;
          if (prefix > before) opts.onFinishedPrefix(prefix - 1);
        },
        (error: unknown) => fail(error),
      )
      .catch(fail)
      .finally(() => {
        if (key !== null) busyKeys.delete(key);
        running.delete(run);
      });
    running.add(run);
  }

  for (;;) {
    if (!halted && !opts.canStart()) halted = true;
    if (!halted && running.size < concurrency) {
      const next = pick();
      const item = next === undefined ? undefined : items[next];
      if (next !== undefined && item !== undefined) {
        start(next, item);
        continue;
      }
    }
    // With nothing running, the first unstarted item is always startable, so an empty
    // window here means everything finished or the window halted.
    if (running.size === 0) break;
    await Promise.race(running);
  }
  if (failure) throw failure.error;
  return { finishedPrefix: prefix, complete: prefix === items.length };
}

/** The `concurrency` of a subscription, refusing values that cannot mean anything. */
export function checkedConcurrency(concurrency: number | undefined, fallback: number): number {
  if (concurrency === undefined) return fallback;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new Error(`bus: concurrency must be a positive integer, got ${concurrency}`);
  }
  return concurrency;
}

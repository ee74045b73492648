import type pg from 'pg';
import { withTransaction } from './transaction.js';

export interface BatcherOptions<T, R> {
  /** Runs once for a whole batch; returns one result per item, in the items' order. */
  run: (items: T[]) => Promise<R[]>;
  /** Most items in one run (default 500); the rest wait for the next one. */
  maxBatch?: number;
}

export interface Batcher<T, R> {
  /** Resolves with the item's result once the run that carried it finished. */
  add(item: T): Promise<R>;
}

interface Waiting<T, R> {
  item: T;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

/**
 * Coalesces concurrent calls into batches without a timer: the first item starts a run at once
 * (after the current microtask, so callers of one synchronous burst share it), and every item
 * added while a run is under way waits for the next run, which starts as soon as the current one
 * ends. Under load the batch therefore grows to whatever arrived during one run; alone, an item
 * pays no delay. One run at a time per batcher.
 *
 * When a batch run throws, each of its items is run again alone: one bad item (or a deadlock
 * with another process) then fails only its own caller, and the others still get their result.
 */
export function createBatcher<T, R>({ run, maxBatch = 500 }: BatcherOptions<T, R>): Batcher<T, R> {
  if (!Number.isInteger(maxBatch) || maxBatch < 1) throw new RangeError('maxBatch must be >= 1');
  const queue: Waiting<T, R>[] = [];
  let running = false;

  async function runBatch(batch: Waiting<T, R>[]): Promise<void> {
    let results: R[];
    try {
      results = await run(batch.map((waiting) => waiting.item));
      if (results.length !== batch.length) {
        throw new Error(`batch run returned ${results.length} results for ${batch.length} items`);
      }
    } catch (error) {
      if (batch.length === 1) {
        batch[0]?.reject(error);
        return;
      }
      // Alone, one after the other: a retry of the whole batch would fail the same way.
      for (const waiting of batch) await runBatch([waiting]);
      return;
    }
    for (const [index, waiting] of batch.entries()) waiting.resolve(results[index] as R);
  }

  async function drain(): Promise<void> {
    running = true;
    // Let the rest of the current synchronous burst join the first batch.
    await Promise.resolve();
    try {
      while (queue.length > 0) await runBatch(queue.splice(0, maxBatch));
    } finally {
      running = false;
    }
  }

  return {
    add(item) {
      return new Promise<R>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        if (!running) void drain();
      });
    },
  };
}

/**
 * Group commit: items added while a transaction runs are written together in the next one.
 * `write` gets the transaction's client and the batch and returns one result per item; each
 * caller's promise resolves only after the transaction holding its item committed, so an item is
 * durable when its `add` resolves. A failed batch is retried item by item (see createBatcher),
 * each in a transaction of its own.
 */
export function createGroupCommit<T, R>(
  pool: pg.Pool,
  write: (client: pg.PoolClient, items: T[]) => Promise<R[]>,
  options: { maxBatch?: number } = {},
): Batcher<T, R> {
  return createBatcher({
    run: (items) => withTransaction(pool, (client) => write(client, items)),
    ...options,
  });
}

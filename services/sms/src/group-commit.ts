// TODO(lead): replace with @msg/db group commit when merged
/**
 * Coalesces concurrent callers into batches: `add(item)` resolves with the item's own result once
 * the batch holding it was flushed. One flush runs at a time; items that arrive while it runs wait
 * for the next, which starts as soon as it ends (no timer: a lone item goes at once, and under
 * load the batches grow by themselves to what arrived during one flush).
 *
 * When a flush of several items fails, each is flushed again on its own, so one bad item fails
 * alone instead of taking its batch with it (a status report is then retried and dead-lettered
 * by the bus; a send answers its error).
 *
 * Used by the intake (one statement per batch of sends) and the status consumer (one transaction
 * per batch of reports): fewer commits, and fewer outbox notifications, whose commits Postgres
 * serialises across the whole server.
 */
export interface GroupCommit<I, R> {
  add(item: I): Promise<R>;
}

interface Waiting<I, R> {
  item: I;
  resolve(result: R): void;
  reject(error: unknown): void;
}

export function createGroupCommit<I, R>({
  flush,
  maxItems = 500,
}: {
  /** Handles a batch in one transaction; answers one result per item, in order. */
  flush(items: I[]): Promise<R[]>;
  maxItems?: number;
}): GroupCommit<I, R> {
  let queue: Waiting<I, R>[] = [];
  let flushing = false;

  async function settle(batch: Waiting<I, R>[]): Promise<void> {
    try {
      const results = await flush(batch.map((w) => w.item));
      if (results.length !== batch.length) throw new Error('group commit: one result per item');
      for (const [i, result] of results.entries()) batch[i]?.resolve(result);
    } catch (error) {
      if (batch.length === 1) {
        batch[0]?.reject(error);
        return;
      }
      for (const waiting of batch) await settle([waiting]);
    }
  }

  async function run(): Promise<void> {
    flushing = true;
    try {
      while (queue.length > 0) {
        const batch = queue.slice(0, maxItems);
        queue = queue.slice(maxItems);
        await settle(batch);
      }
    } finally {
      flushing = false;
    }
  }

  return {
    add(item) {
      return new Promise<R>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        if (!flushing) void run();
      });
    },
  };
}

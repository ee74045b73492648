import { describe, expect, it } from 'vitest';
import { createBatcher } from './batcher.js';

/** A promise with its resolve function outside, to hold a run open. */
function gate() {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

describe('createBatcher', () => {
  it('when items are added in one synchronous burst, then one run carries them all and each caller gets its own result', async () => {
    const runs: number[][] = [];
    const batcher = createBatcher({
      run: async (items: number[]) => {
        runs.push(items);
        return items.map((item) => item * 10);
      },
    });

    const results = await Promise.all([1, 2, 3].map((item) => batcher.add(item)));

    expect(results).toEqual([10, 20, 30]);
    expect(runs).toEqual([[1, 2, 3]]);
  });

  it('when items arrive while a run is under way, then they wait and go together in the next run', async () => {
    const runs: number[][] = [];
    const first = gate();
    const batcher = createBatcher({
      run: async (items: number[]) => {
        runs.push(items);
        if (runs.length === 1) await first.opened;
        return items;
      },
    });

    const a = batcher.add(1);
    await expect.poll(() => runs.length).toBe(1);
    const later = [2, 3, 4].map((item) => batcher.add(item));
    await Promise.resolve();
    expect(runs).toHaveLength(1);
    first.open();

    expect(await Promise.all([a, ...later])).toEqual([1, 2, 3, 4]);
    expect(runs).toEqual([[1], [2, 3, 4]]);
  });

  it('when more items wait than maxBatch, then runs take at most maxBatch each', async () => {
    const runs: number[][] = [];
    const batcher = createBatcher({
      run: async (items: number[]) => {
        runs.push(items);
        return items;
      },
      maxBatch: 2,
    });

    await Promise.all([1, 2, 3, 4, 5].map((item) => batcher.add(item)));

    expect(runs).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('when a batch run throws, then each item is run alone and only the bad one is rejected', async () => {
    const runs: string[][] = [];
    const batcher = createBatcher({
      run: async (items: string[]) => {
        runs.push(items);
        if (items.includes('bad')) throw new Error(`refused ${items.join(',')}`);
        return items.map((item) => item.toUpperCase());
      },
    });

    const results = await Promise.allSettled(['a', 'bad', 'c'].map((item) => batcher.add(item)));

    expect(results).toEqual([
      { status: 'fulfilled', value: 'A' },
      { status: 'rejected', reason: new Error('refused bad') },
      { status: 'fulfilled', value: 'C' },
    ]);
    expect(runs).toEqual([['a', 'bad', 'c'], ['a'], ['bad'], ['c']]);
  });

  it('when a run returns the wrong number of results, then the items are retried alone rather than mismatched', async () => {
    const batcher = createBatcher({
      run: async (items: number[]) => (items.length > 1 ? [0] : items),
    });

    expect(await Promise.all([7, 8].map((item) => batcher.add(item)))).toEqual([7, 8]);
  });

  it('when a run failed, then the next item is still carried (the batcher is not stuck)', async () => {
    let fail = true;
    const batcher = createBatcher({
      run: async (items: number[]) => {
        if (fail) throw new Error('down');
        return items;
      },
    });

    await expect(batcher.add(1)).rejects.toThrow('down');
    fail = false;
    expect(await batcher.add(2)).toBe(2);
  });
});

import { describe, expect, it } from 'vitest';
import { createGroupCommit } from './group-commit.js';

describe('createGroupCommit', () => {
  it('when items arrive while a flush runs, then they go together into the next flush', async () => {
    const flushes: number[][] = [];
    let release = () => {};
    const batcher = createGroupCommit<number, string>({
      flush: async (items) => {
        flushes.push(items);
        if (flushes.length === 1) await new Promise<void>((r) => (release = r));
        return items.map((n) => `r${n}`);
      },
    });

    const first = batcher.add(1);
    const later = [2, 3, 4].map((n) => batcher.add(n));
    release();

    expect(await first).toBe('r1');
    expect(await Promise.all(later)).toEqual(['r2', 'r3', 'r4']);
    expect(flushes).toEqual([[1], [2, 3, 4]]);
  });

  it('when a flush of several fails, then each item is flushed alone and only the bad one fails', async () => {
    const flushes: number[][] = [];
    let release = () => {};
    const batcher = createGroupCommit<number, number>({
      flush: async (items) => {
        flushes.push(items);
        if (flushes.length === 1) await new Promise<void>((r) => (release = r));
        if (items.includes(3)) throw new Error('bad item');
        return items.map((n) => n * 10);
      },
    });

    const first = batcher.add(1);
    const later = [2, 3, 4].map((n) => batcher.add(n));
    release();

    expect(await first).toBe(10);
    const settled = await Promise.allSettled(later);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(flushes).toEqual([[1], [2, 3, 4], [2], [3], [4]]);
  });

  it('when more than maxItems wait, then flushes take at most maxItems each', async () => {
    const sizes: number[] = [];
    const batcher = createGroupCommit<number, number>({
      maxItems: 2,
      flush: async (items) => {
        sizes.push(items.length);
        return items;
      },
    });
    await Promise.all([1, 2, 3, 4, 5].map((n) => batcher.add(n)));
    expect(sizes).toEqual([1, 2, 2]);
  });
});

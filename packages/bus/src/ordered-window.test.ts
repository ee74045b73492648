import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { runOrderedWindow } from './ordered-window.js';

interface Item {
  n: number;
  key: string | null;
}

const items = (keys: (string | null)[]): Item[] => keys.map((key, n) => ({ n, key }));

/** A handler whose calls stay pending until released, recording what ran when. */
function controlled() {
  const releases = new Map<number, (done: boolean) => void>();
  const startedOrder: number[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  return {
    startedOrder,
    maxInFlight: () => maxInFlight,
    running: () => [...releases.keys()],
    handle(item: Item): Promise<boolean> {
      startedOrder.push(item.n);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      return new Promise<boolean>((resolve) => {
        releases.set(item.n, (done) => {
          releases.delete(item.n);
          inFlight--;
          resolve(done);
        });
      });
    },
    release(n: number, done = true) {
      const release = releases.get(n);
      if (!release) throw new Error(`item ${n} is not running`);
      release(done);
    },
  };
}

const tick = () => sleep(1);

describe('runOrderedWindow', () => {
  it('when items have different keys, then up to `concurrency` run at once, never more', async () => {
    const list = items(Array.from({ length: 20 }, (_, n) => `k${n}`));
    let inFlight = 0;
    let max = 0;
    const result = await runOrderedWindow({
      items: list,
      concurrency: 4,
      keyOf: (i) => i.key,
      canStart: () => true,
      onFinishedPrefix: () => {},
      handle: async (item) => {
        inFlight++;
        max = Math.max(max, inFlight);
        await sleep((item.n * 7) % 5);
        inFlight--;
        return true;
      },
    });
    expect(result).toEqual({ finishedPrefix: 20, complete: true });
    expect(max).toBe(4);
  });

  it('when a key is busy, then later items of that key wait while other keys go ahead', async () => {
    const h = controlled();
    const running = runOrderedWindow({
      items: items(['a', 'a', 'b', 'a', 'c']),
      concurrency: 3,
      keyOf: (i) => i.key,
      canStart: () => true,
      onFinishedPrefix: () => {},
      handle: h.handle,
    });
    await tick();
    expect(h.running().sort()).toEqual([0, 2, 4]);
    h.release(0);
    await tick();
    expect(h.running().sort()).toEqual([1, 2, 4]);
    h.release(1);
    await tick();
    expect(h.running().sort()).toEqual([2, 3, 4]);
    for (const n of [2, 3, 4]) h.release(n);
    await running;
    expect(h.startedOrder.filter((n) => [0, 1, 3].includes(n))).toEqual([0, 1, 3]);
  });

  it('when items finish out of order, then the finished prefix only grows past a gap once it is filled', async () => {
    const h = controlled();
    const prefixes: number[] = [];
    const running = runOrderedWindow({
      items: items(['a', 'b', 'c', 'd']),
      concurrency: 4,
      keyOf: (i) => i.key,
      canStart: () => true,
      onFinishedPrefix: (last) => prefixes.push(last),
      handle: h.handle,
    });
    await tick();
    h.release(2);
    h.release(1);
    await tick();
    expect(prefixes).toEqual([]);
    h.release(0);
    await tick();
    expect(prefixes).toEqual([2]);
    h.release(3);
    await running;
    expect(prefixes).toEqual([2, 3]);
  });

  it('when an item is left unfinished, then nothing new starts, the rest settle, and the prefix stops before it', async () => {
    const h = controlled();
    const running = runOrderedWindow({
      items: items(['a', 'b', 'c', 'd', 'e']),
      concurrency: 3,
      keyOf: (i) => i.key,
      canStart: () => true,
      onFinishedPrefix: () => {},
      handle: h.handle,
    });
    await tick();
    h.release(1, false);
    await tick();
    h.release(0);
    h.release(2);
    const result = await running;
    expect(result).toEqual({ finishedPrefix: 1, complete: false });
    expect(h.startedOrder).toEqual([0, 1, 2]);
  });

  it('when canStart turns false, then no further item starts', async () => {
    let open = true;
    const seen: number[] = [];
    const result = await runOrderedWindow({
      items: items(['a', 'b', 'c']),
      concurrency: 1,
      keyOf: (i) => i.key,
      canStart: () => open,
      onFinishedPrefix: () => {},
      handle: async (item) => {
        seen.push(item.n);
        open = false;
        return true;
      },
    });
    expect(seen).toEqual([0]);
    expect(result).toEqual({ finishedPrefix: 1, complete: false });
  });

  it('when a handler throws, then the others settle first and the error is rethrown', async () => {
    const settled: number[] = [];
    await expect(
      runOrderedWindow({
        items: items([null, null, null]),
        concurrency: 3,
        keyOf: (i) => i.key,
        canStart: () => true,
        onFinishedPrefix: () => {},
        handle: async (item) => {
          if (item.n === 0) throw new Error('dead letter failed');
          await sleep(10);
          settled.push(item.n);
          return true;
        },
      }),
    ).rejects.toThrow('dead letter failed');
    expect(settled.sort()).toEqual([1, 2]);
  });

  it('when keys are null, then items are not ordered against each other', async () => {
    const h = controlled();
    const running = runOrderedWindow({
      items: items([null, null]),
      concurrency: 2,
      keyOf: (i) => i.key,
      canStart: () => true,
      onFinishedPrefix: () => {},
      handle: h.handle,
    });
    await tick();
    expect(h.maxInFlight()).toBe(2);
    h.release(0);
    h.release(1);
    await running;
  });
});

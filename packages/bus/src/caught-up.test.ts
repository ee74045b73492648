import { describe, expect, it } from 'vitest';
import { createCaughtUpTracker } from './caught-up.js';

describe('createCaughtUpTracker', () => {
  it('when every partition starts at its end, then it is caught up at once', async () => {
    const tracker = createCaughtUpTracker([
      { topic: 't', partition: 0, start: 5n, end: 5n },
      { topic: 't', partition: 1, start: 0n, end: 0n },
    ]);
    expect(tracker.isCaughtUp()).toBe(true);
    await expect(tracker.promise()).resolves.toBeUndefined();
  });

  it('when only some partitions reach their end, then it waits for the others', () => {
    const tracker = createCaughtUpTracker([
      { topic: 't', partition: 0, start: 0n, end: 3n },
      { topic: 't', partition: 1, start: 0n, end: 2n },
    ]);
    tracker.advance('t', 0, 3n);
    tracker.advance('t', 1, 1n);
    expect(tracker.isCaughtUp()).toBe(false);
    expect(tracker.pending()).toEqual([{ topic: 't', partition: 1 }]);
    tracker.advance('t', 1, 2n);
    expect(tracker.isCaughtUp()).toBe(true);
  });

  it('when abandoned before catching up, then waiters are rejected', async () => {
    const tracker = createCaughtUpTracker([{ topic: 't', partition: 0, start: 0n, end: 1n }]);
    tracker.abandon(new Error('stopped'));
    await expect(tracker.promise()).rejects.toThrow('stopped');
  });
});

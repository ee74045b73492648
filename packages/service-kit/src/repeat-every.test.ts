import { describe, expect, it } from 'vitest';
import { repeatEvery } from './repeat-every.js';

describe('repeatEvery', () => {
  it('when started, then it runs at once, again after the interval, survives a failure, and stop waits for the run', async () => {
    const errors: unknown[] = [];
    let runs = 0;
    let inRun = false;
    const loop = repeatEvery(
      5,
      async () => {
        runs += 1;
        inRun = true;
        await new Promise((r) => setTimeout(r, 2));
        inRun = false;
        if (runs === 2) throw new Error('second run fails');
      },
      (error) => errors.push(error),
    );
    while (runs < 3) await new Promise((r) => setTimeout(r, 1));
    await loop.stop();
    expect(inRun).toBe(false);
    expect(errors).toHaveLength(1);
    const after = runs;
    await new Promise((r) => setTimeout(r, 20));
    expect(runs).toBe(after);
  });
});

import { describe, expect, it } from 'vitest';
import { createSubmitWindow } from './throttle.js';

describe('createSubmitWindow', () => {
  it('when more than perSecond submits arrive within a second, then the extra ones are refused', () => {
    const window = createSubmitWindow();
    const results = [0, 100, 200, 300].map((at) => window.tryAccept(3, at));
    expect(results).toEqual([true, true, true, false]);
  });

  it('when a second has passed since the oldest submit, then room opens again', () => {
    const window = createSubmitWindow();
    for (const at of [0, 100, 200]) window.tryAccept(3, at);
    expect(window.tryAccept(3, 999)).toBe(false);
    expect(window.tryAccept(3, 1000)).toBe(true);
  });

  it('when there is no limit, then every submit is accepted', () => {
    const window = createSubmitWindow();
    expect(Array.from({ length: 50 }, () => window.tryAccept(null, 0)).every(Boolean)).toBe(true);
  });
});

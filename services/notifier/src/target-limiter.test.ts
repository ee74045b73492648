import { describe, expect, it } from 'vitest';
import { createTargetLimiter } from './target-limiter.js';

describe('createTargetLimiter', () => {
  it('when a target has all its slots, then it is refused and listed as saturated until one is released', () => {
    const limiter = createTargetLimiter({ perTarget: 2, global: 10 });
    expect(limiter.tryAcquire('http://a')).toBe(true);
    expect(limiter.tryAcquire('http://a')).toBe(true);
    expect(limiter.tryAcquire('http://a')).toBe(false);
    expect(limiter.tryAcquire('http://b')).toBe(true);
    expect(limiter.saturated()).toEqual(['http://a']);
    limiter.release('http://a');
    expect(limiter.saturated()).toEqual([]);
    expect(limiter.tryAcquire('http://a')).toBe(true);
  });

  it('when the global slots are taken, then every target is refused', () => {
    const limiter = createTargetLimiter({ perTarget: 5, global: 2 });
    expect(limiter.tryAcquire('http://a')).toBe(true);
    expect(limiter.tryAcquire('http://b')).toBe(true);
    expect(limiter.free()).toBe(0);
    expect(limiter.tryAcquire('http://c')).toBe(false);
    limiter.release('http://b');
    expect(limiter.free()).toBe(1);
    expect(limiter.tryAcquire('http://c')).toBe(true);
  });
});

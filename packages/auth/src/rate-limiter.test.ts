import { describe, expect, it } from 'vitest';
import { createRateLimiter } from './rate-limiter.js';

const LIMIT = { perSecond: 2, burst: 3 };

function clock(start = 0) {
  let ms = start;
  return { now: () => ms, advance: (by: number) => (ms += by) };
}

describe('createRateLimiter', () => {
  it('when the burst is used up, then the next take is refused with the wait for one token', () => {
    const time = clock();
    const limiter = createRateLimiter({ now: time.now });

    const decisions = Array.from({ length: 4 }, () => limiter.take('acct', LIMIT));

    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false]);
    expect(decisions[2]?.remaining).toBe(0);
    expect(decisions[3]?.retryAfterSeconds).toBeCloseTo(0.5);
  });

  it('when time passes, then tokens refill at perSecond up to the burst and no further', () => {
    const time = clock();
    const limiter = createRateLimiter({ now: time.now });
    for (let i = 0; i < 3; i++) limiter.take('acct', LIMIT);

    time.advance(500);
    expect(limiter.take('acct', LIMIT).allowed).toBe(true);
    expect(limiter.take('acct', LIMIT).allowed).toBe(false);

    time.advance(60_000);
    const afterRest = Array.from({ length: 4 }, () => limiter.take('acct', LIMIT).allowed);
    expect(afterRest).toEqual([true, true, true, false]);
  });

  it('when a take is refused, then it consumes nothing', () => {
    const time = clock();
    const limiter = createRateLimiter({ now: time.now });
    for (let i = 0; i < 3; i++) limiter.take('acct', LIMIT);
    for (let i = 0; i < 10; i++) limiter.take('acct', LIMIT);

    time.advance(500);

    expect(limiter.take('acct', LIMIT).allowed).toBe(true);
  });

  it('when a take costs several tokens, then the wait covers all of them', () => {
    const limiter = createRateLimiter({ now: clock().now });
    limiter.take('acct', LIMIT, 2);

    const decision = limiter.take('acct', LIMIT, 3);

    expect(decision.allowed).toBe(false);
    expect(decision.retryAfterSeconds).toBeCloseTo(1);
  });

  it('when keys differ, then their buckets are independent', () => {
    const limiter = createRateLimiter({ now: clock().now });
    for (let i = 0; i < 3; i++) limiter.take('a', LIMIT);

    expect(limiter.take('a', LIMIT).allowed).toBe(false);
    expect(limiter.take('b', LIMIT).allowed).toBe(true);
  });

  it('when a per-minute limit is expressed as a fraction per second, then it refills accordingly', () => {
    const time = clock();
    const limiter = createRateLimiter({ now: time.now });
    const perMinute = { perSecond: 100 / 60, burst: 100 };
    for (let i = 0; i < 100; i++) limiter.take('rcs', perMinute);

    expect(limiter.take('rcs', perMinute).retryAfterSeconds).toBeCloseTo(0.6);
    time.advance(600);
    expect(limiter.take('rcs', perMinute).allowed).toBe(true);
  });

  it('when the burst is lowered, then saved tokens are capped to it', () => {
    const limiter = createRateLimiter({ now: clock().now });
    limiter.take('acct', { perSecond: 1, burst: 100 });

    const lowered = { perSecond: 1, burst: 2 };
    expect(limiter.take('acct', lowered).allowed).toBe(true);
    expect(limiter.take('acct', lowered).allowed).toBe(true);
    expect(limiter.take('acct', lowered).allowed).toBe(false);
  });

  it('when buckets sit idle until full again, then they are dropped', () => {
    const time = clock();
    const limiter = createRateLimiter({ now: time.now });
    for (let i = 0; i < 50; i++) limiter.take(`k${i}`, LIMIT);
    expect(limiter.size).toBe(50);

    time.advance(10_000);
    for (let i = 0; i < 60; i++) limiter.take('busy', LIMIT);

    expect(limiter.size).toBe(1);
  });

  it('when more keys than maxKeys are busy, then the least recently used are dropped', () => {
    const limiter = createRateLimiter({ now: clock().now, maxKeys: 10 });
    for (let i = 0; i < 25; i++) limiter.take(`k${i}`, LIMIT);

    expect(limiter.size).toBe(10);
  });

  it('when the clock goes backwards, then no tokens are created', () => {
    const time = clock(10_000);
    const limiter = createRateLimiter({ now: time.now });
    for (let i = 0; i < 3; i++) limiter.take('acct', LIMIT);

    time.advance(-5_000);

    expect(limiter.take('acct', LIMIT).allowed).toBe(false);
  });

  it.each([
    ['zero rate', { perSecond: 0, burst: 1 }, 1],
    ['zero burst', { perSecond: 1, burst: 0 }, 1],
    ['infinite rate', { perSecond: Number.POSITIVE_INFINITY, burst: 1 }, 1],
    ['cost above burst', { perSecond: 1, burst: 2 }, 3],
    ['zero cost', { perSecond: 1, burst: 2 }, 0],
  ])('when called with %s, then it throws RangeError', (_case, limit, cost) => {
    expect(() => createRateLimiter().take('k', limit, cost)).toThrow(RangeError);
  });
});

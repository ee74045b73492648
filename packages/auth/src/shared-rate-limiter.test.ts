import { describe, expect, it } from 'vitest';
import { memoryBucketStore as memoryStore } from '../test/support/memory-bucket-store.js';
import type { RateDecision } from './rate-limiter.js';
import { type BucketStore, createSharedRateLimiter } from './shared-rate-limiter.js';

function clock(start = 0) {
  let ms = start;
  return { now: () => ms, advance: (by: number) => (ms += by) };
}

const LIMIT = { perSecond: 100, burst: 10 };

describe('createSharedRateLimiter', () => {
  it('when a lease holds tokens, then requests spend them here and only the next slice is leased', async () => {
    const time = clock();
    const store = memoryStore(time.now);
    // 100/s * 0.05 s = leases of 5.
    const limiter = createSharedRateLimiter({ store, now: time.now });

    const first = await limiter.take('a', LIMIT);
    const fromLease = [1, 2, 3, 4].map(() => limiter.take('a', LIMIT));
    const sixth = await limiter.take('a', LIMIT);

    expect(first.allowed).toBe(true);
    expect(fromLease.map((d) => !(d instanceof Promise) && d.allowed)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(sixth.allowed).toBe(true);
    expect(store.leases).toBe(2);
  });

  it('when two replicas share a bucket, then together they admit at most burst + perSecond * t', async () => {
    const time = clock();
    const store = memoryStore(time.now);
    const replicas = [1, 2].map(() => createSharedRateLimiter({ store, now: time.now }));
    // Slices of 200/s * 0.05 s = 10 tokens.
    const limit = { perSecond: 200, burst: 20 };

    let admitted = 0;
    // 3 s in steps of 1 ms, both replicas asked every step: 10 times the rate is offered.
    for (let step = 0; step < 3000; step++) {
      for (const replica of replicas) if ((await replica.take('a', limit)).allowed) admitted++;
      time.advance(1);
    }

    expect(admitted).toBeLessThanOrEqual(20 + 200 * 3);
    // What is not admitted by the end: at most a slice still in the bucket and one per replica.
    expect(admitted).toBeGreaterThanOrEqual(20 + 200 * 3 - 3 * 10);
    // One lease per slice, not per request.
    expect(store.leases).toBeLessThanOrEqual(2 * (admitted / 10) + 2);
  });

  it('when the shared bucket is empty, then 429 waits for one token and refusals are decided here until it may have refilled', async () => {
    const time = clock();
    const store = memoryStore(time.now);
    const limiter = createSharedRateLimiter({ store, now: time.now });
    const limit = { perSecond: 2, burst: 1 };

    await limiter.take('a', limit);
    const refused = await limiter.take('a', limit);
    const leasesAfterRefusal = store.leases;
    time.advance(200);
    const refusedHere = limiter.take('a', limit);
    time.advance(300);
    const allowedAgain = await limiter.take('a', limit);

    expect(refused).toEqual({ allowed: false, retryAfterSeconds: 0.5, remaining: 0 });
    expect(refusedHere).toEqual({ allowed: false, retryAfterSeconds: 0.3, remaining: 0 });
    expect(store.leases).toBe(leasesAfterRefusal + 1);
    expect(allowedAgain.allowed).toBe(true);
  });

  it('when leased tokens are not spent within the lease lifetime, then they are dropped', async () => {
    const time = clock();
    const store = memoryStore(time.now);
    const limiter = createSharedRateLimiter({ store, now: time.now, leaseTtlMs: 250 });

    await limiter.take('a', LIMIT);
    time.advance(250);
    const afterExpiry = limiter.take('a', LIMIT);

    expect(afterExpiry).toBeInstanceOf(Promise);
    expect((await afterExpiry).allowed).toBe(true);
    expect(store.leases).toBe(2);
  });

  it('when leases are slow, then slices grow to two round trips of the rate and the waiting request is still admitted', async () => {
    const time = clock();
    const store = memoryStore(time.now);
    const wants: number[] = [];
    // Each lease takes 300 ms, longer than the 250 ms a lease is kept.
    const slow: BucketStore = {
      async lease(key, limit, want, cost) {
        wants.push(want);
        time.advance(300);
        return store.lease(key, limit, want, cost);
      },
    };
    const limiter = createSharedRateLimiter({ store: slow, now: time.now, leaseTtlMs: 250 });
    const limit = { perSecond: 100, burst: 100 };

    const first = await limiter.take('a', limit);
    for (let i = 0; i < 4; i++) limiter.take('a', limit);
    const next = await limiter.take('a', limit);

    expect(first.allowed).toBe(true);
    expect(next.allowed).toBe(true);
    // 100/s * 0.05 s, then 100/s * 2 * 0.3 s.
    expect(wants).toEqual([5, 60]);
  });

  it('when leases are slow and the account sends far below its rate, then nothing is refused', async () => {
    const time = clock();
    const store = memoryStore(time.now);
    // Each lease takes 600 ms: slices grow to 1.2 s of the rate, capped at the whole burst.
    const slow: BucketStore = {
      async lease(key, limit, want, cost) {
        time.advance(600);
        return store.lease(key, limit, want, cost);
      },
    };
    const limiter = createSharedRateLimiter({ store: slow, now: time.now, leaseTtlMs: 250 });
    const limit = { perSecond: 1000, burst: 1000 };

    let refused = 0;
    // 100 requests a second, a tenth of the rate, for about 30 s of the clock.
    for (let i = 0; i < 300; i++) {
      if (!(await limiter.take('a', limit)).allowed) refused++;
      time.advance(10);
    }

    expect(refused).toBe(0);
  });

  it('when requests arrive together with nothing leased, then one lease serves them all', async () => {
    const time = clock();
    const store = memoryStore(time.now);
    const limiter = createSharedRateLimiter({ store, now: time.now });

    const decisions = await Promise.all([1, 2, 3, 4, 5, 6].map(() => limiter.take('a', LIMIT)));

    expect(decisions.map((d: RateDecision) => d.allowed)).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
    ]);
    // Five from the first lease; the sixth waited for it, found it spent and leased again.
    expect(store.leases).toBe(2);
  });

  it('when the account limit changes, then an earlier refusal is not reused', async () => {
    const time = clock();
    const store = memoryStore(time.now);
    const limiter = createSharedRateLimiter({ store, now: time.now });
    await limiter.take('a', { perSecond: 1, burst: 1 });
    expect((await limiter.take('a', { perSecond: 1, burst: 1 })).allowed).toBe(false);

    time.advance(100);
    const raised = await limiter.take('a', { perSecond: 100, burst: 10 });

    expect(raised.allowed).toBe(true);
  });

  it('when the store fails, then the take fails and the next one leases again', async () => {
    const time = clock();
    const store = memoryStore(time.now);
    const limiter = createSharedRateLimiter({ store, now: time.now });
    store.fail = new Error('connection terminated');

    await expect(limiter.take('a', LIMIT)).rejects.toThrow('connection terminated');
    store.fail = undefined;

    expect((await limiter.take('a', LIMIT)).allowed).toBe(true);
    expect(store.leases).toBe(2);
  });

  it('when more keys than maxKeys are used, then the least recently used are forgotten', async () => {
    const time = clock();
    const limiter = createSharedRateLimiter({
      store: memoryStore(time.now),
      now: time.now,
      maxKeys: 2,
    });

    for (const key of ['a', 'b', 'c']) await limiter.take(key, LIMIT);

    expect(limiter.size).toBe(2);
  });

  it('when the cost is above the burst, then the take is refused as a programming error', () => {
    const limiter = createSharedRateLimiter({ store: memoryStore(() => 0) });

    expect(() => limiter.take('a', { perSecond: 1, burst: 1 }, 2)).toThrow(RangeError);
  });
});

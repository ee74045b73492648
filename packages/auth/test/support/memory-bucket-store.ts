import type { RateLimit } from '../../src/rate-limiter.js';
import type { BucketStore, Lease } from '../../src/shared-rate-limiter.js';

/**
 * The shared bucket as Postgres keeps it (the rules of postgres-rate-limiter.ts's statement), on
 * an injected clock, counting leases; set `fail` to make the next leases fail.
 */
export function memoryBucketStore(now: () => number) {
  const buckets = new Map<string, { tokens: number; at: number }>();
  const store: BucketStore & { leases: number; fail?: Error | undefined } = {
    leases: 0,
    async lease(key, { perSecond, burst }: RateLimit, want, cost): Promise<Lease> {
      store.leases++;
      if (store.fail) throw store.fail;
      const at = now();
      const b = buckets.get(key) ?? { tokens: burst, at };
      const available = Math.min(burst, b.tokens + (Math.max(0, at - b.at) / 1000) * perSecond);
      const granted = available >= cost ? Math.max(cost, Math.min(want, Math.floor(available))) : 0;
      buckets.set(key, { tokens: available - granted, at: Math.max(b.at, at) });
      return { granted, left: available - granted };
    },
  };
  return store;
}

export interface RateLimit {
  /** Sustained rate; fractional for per-minute limits (100/min = 100 / 60). */
  perSecond: number;
  /** Bucket size: how many requests may arrive at once after a quiet period. */
  burst: number;
}

export interface RateDecision {
  allowed: boolean;
  /** 0 when allowed; otherwise seconds until `cost` tokens will be available. */
  retryAfterSeconds: number;
  /** Whole tokens left after this decision. */
  remaining: number;
}

/**
 * What a request path needs from a limiter: a decision, at once when it can be made in this
 * process, or after a trip to the shared bucket (see shared-rate-limiter.ts).
 */
export interface RequestRateLimiter {
  /** Takes `cost` tokens from `key`'s bucket if it has them. A refused take costs nothing. */
  take(key: string, limit: RateLimit, cost?: number): RateDecision | Promise<RateDecision>;
}

/** The in-process limiter: always decides at once. */
export interface RateLimiter extends RequestRateLimiter {
  take(key: string, limit: RateLimit, cost?: number): RateDecision;
  /** Buckets currently held. */
  readonly size: number;
}

export interface RateLimiterOptions {
  /** Milliseconds from any monotonic origin; injectable for tests. */
  now?: () => number;
  /** Upper bound on buckets held; beyond it the least recently used are dropped. */
  maxKeys?: number;
}

interface Bucket {
  tokens: number;
  at: number;
  limit: RateLimit;
}

export function checkRateArguments({ perSecond, burst }: RateLimit, cost: number): void {
  if (!(perSecond > 0 && Number.isFinite(perSecond)) || !(burst > 0 && Number.isFinite(burst))) {
    throw new RangeError('rate limit needs a positive finite perSecond and burst');
  }
  // A cost above the burst could never be paid; saying "retry later" would be a lie.
  if (!(cost > 0) || cost > burst) throw new RangeError('rate limit cost must be > 0 and <= burst');
}

/**
 * Token buckets, one per key, in this process. With several replicas each holds its own buckets,
 * so use it where one process owns the key: a Kafka consumer pacing the partitions it owns (the
 * connector's per-account TPS), a bind's own TPS, or a single replica. HTTP requests of one
 * account reach any replica: limit those with createSharedRateLimiter.
 *
 * Memory stays bounded: a bucket that has refilled to its burst is indistinguishable from a new
 * one, so it is dropped (checked on the least recently used bucket at every take, and for all
 * buckets when `maxKeys` is exceeded); if every bucket is busy, the least recently used go first.
 */
export function createRateLimiter({
  now = () => performance.now(),
  maxKeys = 100_000,
}: RateLimiterOptions = {}): RateLimiter {
  // Map order = least recently used first, because every take re-inserts its key.
  const buckets = new Map<string, Bucket>();

  function tokensAt(bucket: Bucket, at: number): number {
    const elapsedSeconds = Math.max(0, at - bucket.at) / 1000;
    return Math.min(bucket.limit.burst, bucket.tokens + elapsedSeconds * bucket.limit.perSecond);
  }

  function isFull(bucket: Bucket, at: number): boolean {
    return tokensAt(bucket, at) >= bucket.limit.burst;
  }

  function evict(at: number): void {
    const oldest = buckets.entries().next();
    if (!oldest.done && isFull(oldest.value[1], at)) buckets.delete(oldest.value[0]);
    if (buckets.size <= maxKeys) return;
    for (const [key, bucket] of buckets) if (isFull(bucket, at)) buckets.delete(key);
    for (const key of buckets.keys()) {
      if (buckets.size <= maxKeys) break;
      buckets.delete(key);
    }
  }

  return {
    take(key, limit, cost = 1) {
      checkRateArguments(limit, cost);
      const at = now();
      const previous = buckets.get(key);
      buckets.delete(key);
      // Limits can change with the account; a lowered burst caps the tokens already saved.
      const bucket: Bucket = previous
        ? { tokens: Math.min(limit.burst, tokensAt(previous, at)), at, limit }
        : { tokens: limit.burst, at, limit };
      let decision: RateDecision;
      if (bucket.tokens >= cost) {
        bucket.tokens -= cost;
        decision = { allowed: true, retryAfterSeconds: 0, remaining: Math.floor(bucket.tokens) };
      } else {
        const retryAfterSeconds = (cost - bucket.tokens) / limit.perSecond;
        decision = { allowed: false, retryAfterSeconds, remaining: Math.floor(bucket.tokens) };
      }
      buckets.set(key, bucket);
      evict(at);
      return decision;
    },
    get size() {
      return buckets.size;
    },
  };
}

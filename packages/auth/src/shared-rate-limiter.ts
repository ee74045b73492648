import {
  checkRateArguments,
  type RateDecision,
  type RateLimit,
  type RequestRateLimiter,
} from './rate-limiter.js';

/** What one lease took from a shared bucket. */
export interface Lease {
  /** Tokens handed to this replica: 0 when the bucket had fewer than `cost`. */
  granted: number;
  /** Tokens left in the shared bucket right after the lease. */
  left: number;
}

/** Token buckets every replica shares (createPostgresBucketStore). */
export interface BucketStore {
  /**
   * Atomically refills `key`'s bucket (a new key starts full), then takes `want` tokens, or as
   * many whole tokens as it holds if that is at least `cost`, or nothing.
   */
  lease(key: string, limit: RateLimit, want: number, cost: number): Promise<Lease>;
}

export interface SharedRateLimiter extends RequestRateLimiter {
  /** Keys this replica currently remembers. */
  readonly size: number;
}

export interface SharedRateLimiterOptions {
  store: BucketStore;
  /** Milliseconds from any monotonic origin; injectable for tests. */
  now?: () => number;
  /**
   * How much one lease takes, in seconds of the rate (at least the cost, at most the burst): 50 ms
   * means an account at 1,000/s costs each busy replica one database round trip per 50 requests.
   * When round trips get slower, slices grow to two round trips of the rate, so a replica is
   * never held below the rate by waiting for its leases.
   */
  leaseSeconds?: number;
  /**
   * Leased tokens not spent within this after the lease came back are dropped: it bounds what a
   * quiet replica holds.
   */
  leaseTtlMs?: number;
  /** Upper bound on keys remembered; beyond it the least recently used are forgotten. */
  maxKeys?: number;
}

interface Held {
  limit: RateLimit;
  /** Leased tokens this replica may still spend, until `expiresAt`. */
  tokens: number;
  expiresAt: number;
  /**
   * The shared bucket's level at the last lease, and a local time no later than when it was
   * read. The bucket gains at most perSecond from then on (tokens are never given back), so
   * while this bound is below a slice the request is refused here, without a round trip.
   */
  left: number;
  seenAt: number;
  /** The lease under way for this key: concurrent requests wait for it instead of adding one. */
  pending?: Promise<Lease>;
}

const sameLimit = (a: RateLimit, b: RateLimit) =>
  a.perSecond === b.perSecond && a.burst === b.burst;

/**
 * A per-key token bucket shared by every replica through a BucketStore. A replica leases a small
 * slice of the shared bucket (one round trip per slice, not per request) and spends it locally;
 * everything admitted anywhere was first taken from the one shared bucket, so all replicas
 * together admit at most burst + perSecond * t in any t, plus the unspent leases held when t
 * starts (at most one slice per replica, and never more than the rate's leaseTtlMs plus one
 * round trip in all).
 * Refusals are decided locally while the bucket cannot have refilled, so a flood of refused
 * requests does not reach the database either.
 */
export function createSharedRateLimiter({
  store,
  now = () => performance.now(),
  leaseSeconds = 0.05,
  leaseTtlMs = 250,
  maxKeys = 100_000,
}: SharedRateLimiterOptions): SharedRateLimiter {
  // Map order = least recently used first: every lease re-inserts its key.
  const held = new Map<string, Held>();
  // Smoothed duration of a lease, in ms.
  let roundTripMs = 0;

  /** Tokens one lease asks for: a slice of the rate, at least the cost, at most the burst. */
  function sliceOf(limit: RateLimit, cost: number): number {
    const seconds = Math.max(leaseSeconds, (2 * roundTripMs) / 1000);
    return Math.max(cost, Math.min(Math.floor(limit.burst), Math.round(limit.perSecond * seconds)));
  }

  /**
   * A refusal until the shared bucket can hold a whole slice again. Waiting for a slice rather
   * than one token admits the same number over time, but keeps a saturated account at one round
   * trip per slice instead of one per admitted request.
   */
  function refusal(limit: RateLimit, cost: number, atMost: number): RateDecision {
    return {
      allowed: false,
      retryAfterSeconds: (sliceOf(limit, cost) - atMost) / limit.perSecond,
      remaining: Math.floor(atMost),
    };
  }

  /** A decision from what this replica knows, or undefined when only the store can tell. */
  function decideHere(
    h: Held | undefined,
    limit: RateLimit,
    cost: number,
  ): RateDecision | undefined {
    if (!h || h.pending || !sameLimit(h.limit, limit)) return undefined;
    const at = now();
    if (at < h.expiresAt && h.tokens >= cost) {
      h.tokens -= cost;
      return { allowed: true, retryAfterSeconds: 0, remaining: Math.floor(h.tokens) };
    }
    // The lease expired unspent: this replica is below the rate, and the bucket it drained with
    // that lease has refilled since. Ask the store; refusing here would refuse for tokens nobody
    // used (a slow database grows slices to the whole burst).
    if (h.tokens >= cost) return undefined;
    const elapsedSeconds = Math.max(0, at - h.seenAt) / 1000;
    const atMost = Math.min(limit.burst, h.left + elapsedSeconds * limit.perSecond);
    return atMost >= sliceOf(limit, cost) ? undefined : refusal(limit, cost, atMost);
  }

  /** Leases for a request that found nothing here; that request is answered from its lease. */
  function lease(key: string, limit: RateLimit, cost: number): Promise<RateDecision> {
    const seenAt = now();
    const pending = store.lease(key, limit, sliceOf(limit, cost), cost);
    // Unspent tokens of an older lease are dropped, not added: every token spent here came back
    // from its lease less than leaseTtlMs ago, which is what bounds the overshoot.
    const h: Held = { limit, tokens: 0, expiresAt: seenAt, left: 0, seenAt, pending };
    held.delete(key);
    held.set(key, h);
    forgetOldest();
    return pending.then(
      (got) => {
        const back = now();
        const took = Math.max(0, back - seenAt);
        roundTripMs = roundTripMs === 0 ? took : 0.8 * roundTripMs + 0.2 * took;
        h.pending = undefined;
        Object.assign(h, { left: got.left, expiresAt: back + leaseTtlMs });
        // The leasing request's own tokens are taken before anyone else can, even if the lease
        // came back late: a slow database slows requests down but never refuses them for that.
        if (got.granted < cost) return refusal(limit, cost, got.left);
        h.tokens = got.granted - cost;
        return { allowed: true, retryAfterSeconds: 0, remaining: Math.floor(h.tokens) };
      },
      (err: unknown) => {
        if (held.get(key) === h) held.delete(key);
        throw err;
      },
    );
  }

  function forgetOldest(): void {
    for (const [key, h] of held) {
      if (held.size <= maxKeys) return;
      if (!h.pending) held.delete(key);
    }
  }

  async function takeShared(key: string, limit: RateLimit, cost: number): Promise<RateDecision> {
    // A lease under way serves those waiting for it; whoever finds it spent leases next.
    for (let waiting = held.get(key)?.pending; waiting; waiting = held.get(key)?.pending) {
      await waiting;
      const decision = decideHere(held.get(key), limit, cost);
      if (decision) return decision;
    }
    return lease(key, limit, cost);
  }

  return {
    take(key, limit, cost = 1) {
      checkRateArguments(limit, cost);
      return decideHere(held.get(key), limit, cost) ?? takeShared(key, limit, cost);
    },
    get size() {
      return held.size;
    },
  };
}

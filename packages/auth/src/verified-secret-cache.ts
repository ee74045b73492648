import { createHmac, randomBytes } from 'node:crypto';

/**
 * Remembers, for a short while, that a secret matched a stored hash, so a client sending the same
 * valid credentials on every request pays one scrypt per TTL instead of one per request.
 *
 * Entries are keyed by HMAC(per-process random key, account id, stored hash, secret): the raw secret
 * is never kept, a memory dump does not give a fast offline guess against the digest without the
 * process key, and a password or key change (new stored hash) misses the cache by construction.
 * Only successes are cached; failures always pay full price.
 */
export interface VerifiedSecretCache {
  digest(accountId: string, storedHash: string, secret: string): string;
  has(digest: string): boolean;
  add(digest: string): void;
  readonly size: number;
}

export interface VerifiedSecretCacheOptions {
  ttlMs: number;
  maxEntries: number;
  now?: () => number;
}

export function createVerifiedSecretCache({
  ttlMs,
  maxEntries,
  now = Date.now,
}: VerifiedSecretCacheOptions): VerifiedSecretCache {
  const hmacKey = randomBytes(32);
  // Map keeps insertion order, so the first entry is always the oldest: eviction is O(1).
  const expiresAt = new Map<string, number>();

  return {
    digest(accountId, storedHash, secret) {
      // NUL separators: ids and scrypt strings never contain one, so fields cannot run together.
      return createHmac('sha256', hmacKey)
        .update(accountId)
        .update('\0')
        .update(storedHash)
        .update('\0')
        .update(secret)
        .digest('base64url');
    },
    has(digest) {
      const expiry = expiresAt.get(digest);
      if (expiry === undefined) return false;
      if (expiry <= now()) {
        expiresAt.delete(digest);
        return false;
      }
      return true;
    },
    add(digest) {
      if (ttlMs <= 0 || maxEntries <= 0) return;
      expiresAt.delete(digest);
      expiresAt.set(digest, now() + ttlMs);
      while (expiresAt.size > maxEntries) {
        const oldest = expiresAt.keys().next();
        if (oldest.done) break;
        expiresAt.delete(oldest.value);
      }
    },
    get size() {
      return expiresAt.size;
    },
  };
}

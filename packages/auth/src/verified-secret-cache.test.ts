import { describe, expect, it } from 'vitest';
import { createVerifiedSecretCache } from './verified-secret-cache.js';

describe('createVerifiedSecretCache', () => {
  it('when a digest is computed, then it does not contain the secret and depends on every field', () => {
    const cache = createVerifiedSecretCache({ ttlMs: 1000, maxEntries: 10 });
    const digest = cache.digest('acct', 'scrypt$hash-1', 'hunter2');

    expect(digest).not.toContain('hunter2');
    expect(cache.digest('acct', 'scrypt$hash-2', 'hunter2')).not.toBe(digest);
    expect(cache.digest('other', 'scrypt$hash-1', 'hunter2')).not.toBe(digest);
    expect(cache.digest('acct', 'scrypt$hash-1', 'hunter3')).not.toBe(digest);
  });

  it('when two caches digest the same input, then the digests differ (per-process key)', () => {
    const a = createVerifiedSecretCache({ ttlMs: 1000, maxEntries: 10 });
    const b = createVerifiedSecretCache({ ttlMs: 1000, maxEntries: 10 });

    expect(a.digest('acct', 'h', 's')).not.toBe(b.digest('acct', 'h', 's'));
  });

  it('when the TTL has passed, then the entry is gone', () => {
    let now = 0;
    const cache = createVerifiedSecretCache({ ttlMs: 1000, maxEntries: 10, now: () => now });
    cache.add('d');

    now = 999;
    expect(cache.has('d')).toBe(true);
    now = 1000;
    expect(cache.has('d')).toBe(false);
    expect(cache.size).toBe(0);
  });

  it('when more than maxEntries are added, then the oldest are dropped', () => {
    const cache = createVerifiedSecretCache({ ttlMs: 1000, maxEntries: 2 });
    cache.add('a');
    cache.add('b');
    cache.add('c');

    expect(cache.size).toBe(2);
    expect(cache.has('a')).toBe(false);
    expect(cache.has('c')).toBe(true);
  });

  it('when the TTL is zero, then nothing is remembered', () => {
    const cache = createVerifiedSecretCache({ ttlMs: 0, maxEntries: 10 });
    cache.add('a');

    expect(cache.has('a')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { cacheControl, ifNoneMatchHits, strongEtag } from './representation.js';

const NOW = new Date('2026-11-21T12:00:00.000Z');

describe('cacheControl', () => {
  it('when every part is valid for a while, then max-age until the earliest', () => {
    expect(cacheControl(['2026-11-21T12:15:00.000Z', '2026-11-22T04:00:00.000Z'], false, NOW)).toBe(
      'private, max-age=900',
    );
  });

  it('when the earliest valid_until has passed (or is now), then no-cache', () => {
    expect(cacheControl(['2026-11-21T11:00:00.000Z', '2026-11-22T00:00:00Z'], false, NOW)).toBe(
      'private, no-cache',
    );
    expect(cacheControl([NOW.toISOString()], false, NOW)).toBe('private, no-cache');
  });

  it('when a part has valid_until null, or the answer is findings only, then no-store', () => {
    expect(cacheControl(['2026-11-22T04:00:00.000Z', null], false, NOW)).toBe('private, no-store');
    expect(cacheControl(['2026-11-22T04:00:00.000Z'], true, NOW)).toBe('private, no-store');
  });
});

describe('ETag and If-None-Match', () => {
  const etag = strongEtag('{"a":1}');

  it('when computed, then it is a quoted base64url sha256 of the bytes', () => {
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(strongEtag('{"a":2}')).not.toBe(etag);
  });

  it.each([
    [etag, true],
    [`"x", ${etag}`, true],
    [`W/${etag}`, true],
    ['*', true],
    [' * ', true],
    ['"x", "y"', false],
    ['', false],
  ])('when If-None-Match is %j, then match = %s', (header, hit) => {
    expect(ifNoneMatchHits(header, etag)).toBe(hit);
  });

  it('when there is no If-None-Match, then no match', () => {
    expect(ifNoneMatchHits(undefined, etag)).toBe(false);
  });
});

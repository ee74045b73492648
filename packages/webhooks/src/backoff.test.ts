import { describe, expect, it } from 'vitest';
import { backoffDelay } from './backoff.js';

describe('backoffDelay', () => {
  it('when drawn many times, then every delay lies within [0, base * 2^(attempt-1)]', () => {
    for (let attempt = 1; attempt <= 8; attempt += 1) {
      const ceiling = 1_000 * 2 ** (attempt - 1);
      for (let i = 0; i < 200; i += 1) {
        const delay = backoffDelay(attempt);
        expect(delay).toBeGreaterThanOrEqual(0);
        expect(delay).toBeLessThanOrEqual(ceiling);
      }
    }
  });

  it('when the random draw is at its extremes, then the delay is 0 or just under the ceiling', () => {
    expect(backoffDelay(3, { random: () => 0 })).toBe(0);
    expect(backoffDelay(3, { random: () => 0.999_999 })).toBe(3_999);
  });

  it('when attempts grow large, then the ceiling stops at maxMs (10 minutes by default)', () => {
    expect(backoffDelay(40, { random: () => 0.999_999 })).toBe(599_999);
    expect(backoffDelay(10_000, { random: () => 0.5 })).toBe(300_000);
    expect(backoffDelay(5, { baseMs: 10, maxMs: 50, random: () => 0.999_999 })).toBe(49);
  });

  it('when the draws are many, then they spread over the range rather than cluster (full jitter)', () => {
    const delays = Array.from({ length: 500 }, () => backoffDelay(4, { baseMs: 100 }));
    expect(Math.min(...delays)).toBeLessThan(200);
    expect(Math.max(...delays)).toBeGreaterThan(600);
  });
});

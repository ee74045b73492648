import { describe, expect, it } from 'vitest';
import { backoffDelay } from './backoff.js';

const none = { baseMs: 100, maxMs: 500, jitter: 'none' } as const;
const full = { baseMs: 1_000, maxMs: 600_000, jitter: 'full' } as const;

describe('backoffDelay', () => {
  it('when there is no jitter, then the wait doubles from baseMs per failed attempt up to maxMs', () => {
    expect([1, 2, 3, 4, 5].map((n) => backoffDelay(n, none))).toEqual([100, 200, 400, 500, 500]);
  });

  it('when the attempt is below 1 or fractional, then it counts as the whole attempts before it, at least 1', () => {
    expect(backoffDelay(0, none)).toBe(100);
    expect(backoffDelay(-3, none)).toBe(100);
    expect(backoffDelay(2.9, none)).toBe(200);
  });

  it('when attempts are so many that 2^n overflows, then the wait is maxMs', () => {
    expect(backoffDelay(10_000, none)).toBe(500);
  });

  it('when the jitter is full, then the wait is whole milliseconds in [0, the doubled wait)', () => {
    expect(backoffDelay(3, full, () => 0)).toBe(0);
    expect(backoffDelay(3, full, () => 0.999_999)).toBe(3_999);
    expect(backoffDelay(3, full, () => 0.5)).toBe(2_000);
    expect(backoffDelay(40, full, () => 0.999_999)).toBe(599_999);
  });

  it('when the jitter is full and no source is given, then draws spread over the range', () => {
    const delays = Array.from({ length: 500 }, () => backoffDelay(4, full));
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...delays)).toBeLessThan(8_000);
    expect(new Set(delays).size).toBeGreaterThan(100);
  });
});

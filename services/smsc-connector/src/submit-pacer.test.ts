import { createRateLimiter } from '@msg/auth';
import { describe, expect, it } from 'vitest';
import { ShuttingDownError } from './abortable-sleep.js';
import { createBindPacer, takeToken } from './submit-pacer.js';

describe('createBindPacer', () => {
  it('when the SMSC throttled, then the next submit waits the backoff and the rate halves', async () => {
    const pacer = createBindPacer({
      limiter: createRateLimiter(),
      key: 'a',
      tps: 1000,
      initialBackoffMs: 60,
    });
    const signal = new AbortController().signal;
    await pacer.wait(signal);

    pacer.slowDown();
    const started = performance.now();
    await pacer.wait(signal);

    expect(performance.now() - started).toBeGreaterThanOrEqual(50);
    expect(pacer.currentTps).toBe(500);
    pacer.accepted();
    expect(pacer.currentTps).toBeGreaterThan(500);
  });
});

describe('takeToken', () => {
  it('when the bucket is empty, then it waits for the next token rather than refusing', async () => {
    const limiter = createRateLimiter();
    const signal = new AbortController().signal;
    const started = performance.now();
    for (let i = 0; i < 3; i++) await takeToken(limiter, 'acct', 20, signal);
    // Burst of two at 20/s: the third token comes ~50 ms later.
    expect(performance.now() - started).toBeGreaterThanOrEqual(40);
  });

  it('when the connector stops during the wait, then it throws ShuttingDownError', async () => {
    const limiter = createRateLimiter();
    const stopping = new AbortController();
    await takeToken(limiter, 'acct', 1, stopping.signal);
    const waiting = takeToken(limiter, 'acct', 1, stopping.signal);
    stopping.abort();
    await expect(waiting).rejects.toBeInstanceOf(ShuttingDownError);
  });
});

import { getEventListeners } from 'node:events';
import { createRateLimiter } from '@msg/auth';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeBind } from '../test/support.js';
import { pause, ShuttingDownError } from './abortable-sleep.js';
import { createBindPool } from './bind-pool.js';
import { createBindPacer, takeToken } from './submit-pacer.js';

const unbound = fakeBind('a', { isBound: false });

const warnings: Error[] = [];
const onWarning = (warning: Error) => warnings.push(warning);

afterEach(() => {
  process.off('warning', onWarning);
  warnings.length = 0;
});

describe('waiting on the stop signal', () => {
  it('when 50 handlers wait at once in every kind of wait, then the signal has one listener, no warning is printed and all of them abort', async () => {
    process.on('warning', onWarning);
    const stopping = new AbortController();
    const limiter = createRateLimiter();
    await takeToken(limiter, 'acct', 1, stopping.signal); // the bucket is empty from here on
    const pacer = createBindPacer({ limiter, key: 'bind', tps: 1, initialBackoffMs: 60_000 });
    pacer.slowDown();
    const pool = createBindPool([unbound]);
    const waits = Array.from({ length: 50 }, (_, i) => {
      switch (i % 4) {
        case 0:
          return pause(60_000, stopping.signal);
        case 1:
          return takeToken(limiter, 'acct', 1, stopping.signal);
        case 2:
          return pool.acquire(stopping.signal);
        default:
          return pacer.wait(stopping.signal);
      }
    });
    const settled = Promise.allSettled(waits);

    expect(getEventListeners(stopping.signal, 'abort').length).toBeLessThanOrEqual(1);
    stopping.abort();
    const results = await settled;

    expect(
      results.every((r) => r.status === 'rejected' && r.reason instanceof ShuttingDownError),
    ).toBe(true);
    // Warnings are emitted on the next tick.
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
  });

  it('when waits end without an abort, then they leave nothing behind on the signal', async () => {
    const signal = new AbortController().signal;
    await Promise.all(Array.from({ length: 50 }, () => pause(1, signal)));
    const pool = createBindPool([fakeBind('b')]);
    await Promise.all(Array.from({ length: 50 }, () => pool.acquire(signal)));
    expect(getEventListeners(signal, 'abort').length).toBeLessThanOrEqual(1);
  });
});

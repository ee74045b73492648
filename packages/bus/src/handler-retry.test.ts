import { makeEvent } from '@msg/contracts';
import { createLogger } from '@msg/logger';
import { describe, expect, it } from 'vitest';
import { backoffDelay, runHandlerWithRetries } from './handler-retry.js';
import type { ConsumedMessage } from './types.js';

const logger = createLogger({ service: 'test', level: 'error' });
const message: ConsumedMessage = {
  topic: 't',
  partition: 0,
  offset: '0',
  key: 'k',
  value: makeEvent('t', {}),
  headers: {},
};
const retry = { initialDelayMs: 1, maxDelayMs: 4 };

describe('runHandlerWithRetries', () => {
  it('when the handler keeps failing, then it gives up after maxAttempts with the last error', async () => {
    let calls = 0;
    const outcome = await runHandlerWithRetries({
      handler: async () => {
        calls++;
        throw new Error(`boom ${calls}`);
      },
      message,
      groupId: 'g',
      maxAttempts: 4,
      retry,
      signal: new AbortController().signal,
      logger,
    });
    expect(calls).toBe(4);
    expect(outcome).toMatchObject({ kind: 'failed', attempts: 4, error: new Error('boom 4') });
  });

  it('when the subscription stops during a backoff, then it stops without giving up the message', async () => {
    const abort = new AbortController();
    const outcome = await runHandlerWithRetries({
      handler: async () => {
        abort.abort();
        throw new Error('boom');
      },
      message,
      groupId: 'g',
      maxAttempts: 5,
      retry: { initialDelayMs: 60_000, maxDelayMs: 60_000 },
      signal: abort.signal,
      logger,
    });
    expect(outcome).toEqual({ kind: 'stopped' });
  });

  it('when attempts fail, then the delay doubles up to the maximum', () => {
    const r = { initialDelayMs: 100, maxDelayMs: 500 };
    expect([1, 2, 3, 4].map((n) => backoffDelay(r, n))).toEqual([100, 200, 400, 500]);
  });
});

import { createLogger } from '@msg/logger';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createRelayWakeup, type RelayWakeup } from './relay-wakeup.js';

const logger = createLogger({ service: 'bus-test', level: 'error' });
// Never connected: these tests run with listen off.
const pool = new pg.Pool({ connectionString: 'postgres://nobody@127.0.0.1:1/none' });

describe('createRelayWakeup', () => {
  let wakeup: RelayWakeup;
  afterEach(async () => wakeup?.close());

  it('when woken a thousand times during a batch, then the next wait returns at once and the one after waits', async () => {
    wakeup = createRelayWakeup({ pool, channel: 'outbox_test', logger, listen: false });
    const signal = new AbortController().signal;
    for (let i = 0; i < 1000; i++) wakeup.wake();

    const first = performance.now();
    await wakeup.wait(10_000, signal);
    expect(performance.now() - first).toBeLessThan(1_000);

    const second = performance.now();
    await wakeup.wait(200, signal);
    expect(performance.now() - second).toBeGreaterThanOrEqual(150);
  });

  it('when woken while waiting, then the wait ends before its timeout', async () => {
    wakeup = createRelayWakeup({ pool, channel: 'outbox_test', logger, listen: false });
    const waited = wakeup.wait(60_000, new AbortController().signal);
    setTimeout(() => wakeup.wake(), 10);
    await expect(waited).resolves.toBeUndefined();
  });

  it('when the relay stops while waiting, then the wait ends', async () => {
    wakeup = createRelayWakeup({ pool, channel: 'outbox_test', logger, listen: false });
    const stop = new AbortController();
    const waited = wakeup.wait(60_000, stop.signal);
    stop.abort();
    await expect(waited).resolves.toBeUndefined();
    expect(wakeup.listening).toBe(false);
  });
});

describe('createRelayWakeup while the server does not answer', () => {
  it('when closed while connecting, then close does not wait for the connect timeout', async () => {
    // A listening socket that never speaks: the connect hangs until its timeout.
    const { createServer } = await import('node:net');
    const silent = createServer(() => {});
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const address = silent.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const hanging = new pg.Pool({ connectionString: `postgres://nobody@127.0.0.1:${port}/none` });
    const wakeup = createRelayWakeup({
      pool: hanging,
      channel: 'outbox_test',
      logger,
      listen: true,
      connectTimeoutMs: 30_000,
    });
    await new Promise((r) => setTimeout(r, 100));
    const started = performance.now();
    await wakeup.close();
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(wakeup.listening).toBe(false);
    silent.close();
  });
});

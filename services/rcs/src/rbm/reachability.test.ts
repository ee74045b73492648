import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rbmReachability } from './reachability.js';

describe('rbmReachability', () => {
  let server: ReturnType<typeof createServer>;
  let url: string;
  let hits = 0;

  beforeAll(async () => {
    // Answers 404 at the root, as Google's RBM host does: reachable all the same.
    server = createServer((_req, res) => {
      hits++;
      res.writeHead(404).end('{"error":{"code":404}}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('is ready on any HTTP answer and reuses it for cacheMs', async () => {
    let clock = 0;
    const check = rbmReachability(url, { cacheMs: 5_000, now: () => clock });
    expect(check.name).toBe('rbm platform');
    expect(await check.isReady()).toBe(true);
    clock = 4_999;
    expect(await check.isReady()).toBe(true);
    expect(hits).toBe(1);
    clock = 5_000;
    expect(await check.isReady()).toBe(true);
    expect(hits).toBe(2);
  });

  it('is not ready when nothing answers, and notices the platform coming back', async () => {
    let clock = 0;
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const check = rbmReachability(`http://127.0.0.1:${port}`, { cacheMs: 1_000, now: () => clock });
    expect(await check.isReady()).toBe(false);
    const back = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => back.listen(port, '127.0.0.1', resolve));
    try {
      expect(await check.isReady()).toBe(false); // still the cached answer
      clock = 1_000;
      expect(await check.isReady()).toBe(true);
    } finally {
      back.closeAllConnections();
      await new Promise((resolve) => back.close(resolve));
    }
  });

  it('is not ready when the platform does not answer within the timeout', async () => {
    const silent = createServer(() => {}); // accepts, never answers
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const port = (silent.address() as AddressInfo).port;
      const check = rbmReachability(`http://127.0.0.1:${port}`, { timeoutMs: 100 });
      expect(await check.isReady()).toBe(false);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

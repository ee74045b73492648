import express from 'express';
import { describe, expect, it } from 'vitest';
import { loadGatewayConfig } from '../src/config.js';
import { startGateway } from '../src/start-gateway.js';
import { capturingLogger, listen } from './support.js';

describe('startGateway (in-process launcher and main.ts)', () => {
  it('when closed while a request is in flight, then that request completes and new ones are refused', async () => {
    let release: () => void = () => {};
    let arrive: () => void = () => {};
    const arrived = new Promise<void>((resolve) => {
      arrive = resolve;
    });
    const app = express();
    app.use((_req, res) => {
      release = () => res.json({ finished: true });
      arrive();
    });
    const upstream = await listen(app);

    // PORT 0 (a free port) is what the launcher and tests use; the setting itself requires 1+.
    const config = {
      ...loadGatewayConfig({ HOST: '127.0.0.1', UPSTREAM_BATCH: upstream.url }),
      PORT: 0,
    };
    const gateway = await startGateway(config, { logger: capturingLogger().logger });
    expect(gateway.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const inFlight = fetch(`${gateway.url}/v1/batches/b1`);
    await arrived;
    const closed = gateway.close();
    release();
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ finished: true });
    await closed;
    await expect(fetch(`${gateway.url}/healthz`)).rejects.toThrow();
    await upstream.close();
  });
});

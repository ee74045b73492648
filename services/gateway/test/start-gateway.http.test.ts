import { connect } from 'node:net';
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

describe('requests Node refuses before the gateway sees them', () => {
  const base = 'https://problems.example.test/numbers';

  async function raw(url: string, bytes: string) {
    const { port } = new URL(url);
    const socket = connect(Number(port), '127.0.0.1');
    socket.write(bytes);
    const chunks: Buffer[] = [];
    for await (const chunk of socket) chunks.push(chunk as Buffer);
    const [head = '', body = ''] = Buffer.concat(chunks).toString('utf8').split('\r\n\r\n');
    return {
      status: Number(head.split(' ')[1]),
      contentType: /\r\ncontent-type: ([^\r]+)/i.exec(head)?.[1],
      body: JSON.parse(body) as Record<string, unknown>,
    };
  }

  it('when headers pass 16 KB or the framing is broken, then the route’s own error format answers', async () => {
    const config = {
      ...loadGatewayConfig({ HOST: '127.0.0.1', PROBLEM_TYPE_BASE: base }),
      PORT: 0,
    };
    const gateway = await startGateway(config, { logger: capturingLogger().logger });
    try {
      const big = `X-Big: ${'a'.repeat(20_000)}\r\n`;
      const numbers = await raw(
        gateway.url,
        `GET /v1/numbers/46701234567 HTTP/1.1\r\nHost: x\r\n${big}\r\n`,
      );
      expect(numbers).toEqual({
        status: 431,
        contentType: 'application/problem+json; charset=utf-8',
        body: {
          type: `${base}/headers-too-large`,
          title: 'Request Header Fields Too Large',
          status: 431,
          detail: 'Request headers are too large',
          instance: '/v1/numbers/46701234567',
        },
      });
      const sms = await raw(gateway.url, 'POST /v1/sms/send HTTP/1.1\r\nHost x\r\n\r\n');
      expect(sms).toEqual({
        status: 400,
        contentType: 'application/json; charset=utf-8',
        body: { code: 'MALFORMED_REQUEST', message: 'The request is not valid HTTP/1.1' },
      });
      const lookup = await raw(
        gateway.url,
        `GET /v1/lookup/sweden/46701234567 HTTP/1.1\r\nHost: x\r\n${big}\r\n`,
      );
      expect(lookup.status).toBe(431);
      expect(lookup.body).toEqual({
        code: 'HEADERS_TOO_LARGE',
        message: 'Request headers are too large',
      });
    } finally {
      await gateway.close();
    }
  });
});

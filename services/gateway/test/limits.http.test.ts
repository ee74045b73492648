import { once } from 'node:events';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type EchoUpstream,
  echoUpstream,
  type Listening,
  listen,
  open,
  type RunningGateway,
  startTestGateway,
} from './support.js';

const KB = 1024;
const MB = 1024 * KB;

let upstream: EchoUpstream | Listening | undefined;
let gateway: RunningGateway | undefined;

afterEach(async () => {
  await gateway?.close();
  await upstream?.close();
  gateway = undefined;
  upstream = undefined;
});

async function eventually(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('declared body size (Content-Length)', () => {
  it('when a body is declared over BODY_LIMIT, then 413 before a byte reaches the service', async () => {
    const echo = await echoUpstream('sms');
    upstream = echo;
    gateway = await startTestGateway({ UPSTREAM_SMS: echo.url });
    const { req, response } = open(gateway.url, '/v1/sms/send', {
      'Content-Type': 'application/json',
      'Content-Length': MB + 1,
    });
    req.flushHeaders(); // headers only: the gateway must answer without waiting for the body
    const { res, body } = await response;
    req.destroy();
    expect(res.statusCode).toBe(413);
    expect(JSON.parse(body)).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect(echo.seen).toEqual([]);
  });

  it('when batch create carries more than BODY_LIMIT but within BATCH_BODY_LIMIT, then it passes', async () => {
    const echo = await echoUpstream('batch');
    upstream = echo;
    gateway = await startTestGateway({ UPSTREAM_BATCH: echo.url });
    const { req, response } = open(gateway.url, '/v1/batches', {
      'Content-Type': 'application/json',
      'Content-Encoding': 'gzip',
      'Content-Length': 2 * MB,
    });
    req.end(Buffer.alloc(2 * MB, 1));
    const { res, body } = await response;
    const echoed = JSON.parse(body);
    expect(res.statusCode).toBe(200);
    expect(echoed.bodyBytes).toBe(2 * MB);
    // Passed through untouched: the gateway neither decodes nor re-encodes.
    expect(echoed.headers['content-encoding']).toBe('gzip');
  });

  it('when another batch route carries more than BODY_LIMIT, then 413', async () => {
    const echo = await echoUpstream('batch');
    upstream = echo;
    gateway = await startTestGateway({ UPSTREAM_BATCH: echo.url });
    const { req, response } = open(gateway.url, '/v1/batches/b1/cancel', {
      'Content-Length': 2 * MB,
    });
    req.flushHeaders();
    const { res } = await response;
    req.destroy();
    expect(res.statusCode).toBe(413);
    expect(echo.seen).toEqual([]);
  });

  it('when batch create is declared over BATCH_BODY_LIMIT, then 413', async () => {
    const echo = await echoUpstream('batch');
    upstream = echo;
    gateway = await startTestGateway({ UPSTREAM_BATCH: echo.url, BATCH_BODY_LIMIT: '64kb' });
    const { req, response } = open(gateway.url, '/v1/batches', { 'Content-Length': 64 * KB + 1 });
    req.flushHeaders();
    const { res } = await response;
    req.destroy();
    expect(res.statusCode).toBe(413);
    expect(echo.seen).toEqual([]);
  });
});

describe('chunked body growing past the limit', () => {
  it('when a chunked body passes BODY_LIMIT, then the caller gets 413 and the service never gets a complete body', async () => {
    const received: { bytes: number; complete: boolean }[] = [];
    let bytesSoFar = 0;
    const app = express();
    app.use((req, res) => {
      req.on('data', (chunk: Buffer) => {
        bytesSoFar += chunk.length;
      });
      req.on('close', () => received.push({ bytes: bytesSoFar, complete: req.complete }));
      req.on('end', () => res.json({ ok: true }));
    });
    upstream = await listen(app);
    gateway = await startTestGateway({ UPSTREAM_SMS: upstream.url, BODY_LIMIT: '64kb' });

    const { req, response } = open(gateway.url, '/v1/sms/send', {
      'Content-Type': 'application/json',
      'Transfer-Encoding': 'chunked',
    });
    let answered = false;
    void response.then(() => {
      answered = true;
    });
    const chunk = Buffer.alloc(8 * KB, 0x20);
    // Keep sending, as a client that does not stop on its own would, until the gateway answers.
    for (let sent = 0; !answered && sent < 4 * MB; sent += chunk.length) {
      if (!req.write(chunk)) await Promise.race([once(req, 'drain'), response]);
      await new Promise((resolve) => setImmediate(resolve));
    }
    const { res, body } = await response;
    req.destroy();

    expect(res.statusCode).toBe(413);
    expect(JSON.parse(body)).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    await eventually(() => received.length > 0);
    expect(received[0]?.complete).toBe(false);
    // At most the limit plus the chunk in flight when the limit was crossed.
    expect(received[0]?.bytes).toBeLessThanOrEqual(64 * KB + 64 * KB);
  });
});

describe('streaming a large body', () => {
  it('when 20 MB are sent to batch create, then the service reads the first bytes before the caller has sent them all', async () => {
    const total = 20 * MB;
    let received = 0;
    let firstBytes: () => void = () => {};
    const firstBytesArrived = new Promise<void>((resolve) => {
      firstBytes = resolve;
    });
    const app = express();
    app.post('/v1/batches', (req, res) => {
      req.on('data', (chunk: Buffer) => {
        received += chunk.length;
        firstBytes();
      });
      req.on('end', () => res.status(202).json({ bytes: received }));
    });
    upstream = await listen(app);
    gateway = await startTestGateway({ UPSTREAM_BATCH: upstream.url });

    const { req, response } = open(gateway.url, '/v1/batches', {
      'Content-Type': 'application/json',
      'Content-Encoding': 'gzip',
      'Content-Length': total,
    });
    const chunk = Buffer.alloc(64 * KB, 7);
    const send = async (bytes: number) => {
      for (let sent = 0; sent < bytes; sent += chunk.length) {
        if (!req.write(chunk)) await once(req, 'drain');
      }
    };

    await send(total / 2);
    // A gateway that buffered whole bodies would forward nothing before the end: this would time out.
    await Promise.race([
      firstBytesArrived,
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error('no bytes reached the service mid-upload')), 5_000),
      ),
    ]);
    expect(received).toBeGreaterThan(0);
    expect(received).toBeLessThan(total);
    await send(total / 2);
    req.end();

    const { res, body } = await response;
    expect(res.statusCode).toBe(202);
    expect(JSON.parse(body)).toEqual({ bytes: total });
  });
});

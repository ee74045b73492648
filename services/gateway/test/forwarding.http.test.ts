import express from 'express';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type EchoUpstream,
  echoUpstream,
  type Listening,
  listen,
  type RunningGateway,
  startTestGateway,
} from './support.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
// The loopback peer as node reports it, IPv4 or IPv4-mapped IPv6.
const LOOPBACK = /^(::ffff:)?127\.0\.0\.1$/;

describe('request id', () => {
  let batch: EchoUpstream;
  let gateway: RunningGateway;

  beforeAll(async () => {
    batch = await echoUpstream('batch');
    gateway = await startTestGateway({ UPSTREAM_BATCH: batch.url });
  });
  afterAll(async () => {
    await gateway.close();
    await batch.close();
  });

  it('when the caller sends a sane X-Request-Id, then the service gets it and the caller gets it back', async () => {
    const res = await request(gateway.url).get('/v1/batches/b1').set('X-Request-Id', 'abc-123.x');
    expect(res.headers['x-request-id']).toBe('abc-123.x');
    expect(res.body.headers['x-request-id']).toBe('abc-123.x');
  });

  it('when the caller sends none, then one is generated, forwarded and echoed', async () => {
    const res = await request(gateway.url).get('/v1/batches/b1');
    expect(res.headers['x-request-id']).toMatch(UUID);
    expect(res.body.headers['x-request-id']).toBe(res.headers['x-request-id']);
  });

  it('when the caller sends an id with spaces or an unbounded length, then it is replaced', async () => {
    for (const bad of ['has space', '<script>', 'x'.repeat(129)]) {
      const res = await request(gateway.url).get('/v1/batches/b1').set('X-Request-Id', bad);
      expect(res.headers['x-request-id']).toMatch(UUID);
      expect(res.body.headers['x-request-id']).toBe(res.headers['x-request-id']);
    }
  });

  it('when the gateway answers itself, then it still echoes the id', async () => {
    const res = await request(gateway.url).get('/nowhere').set('X-Request-Id', 'own-1');
    expect(res.status).toBe(404);
    expect(res.headers['x-request-id']).toBe('own-1');
  });
});

describe('a service that answers with an id of its own', () => {
  let upstream: Listening;
  let gateway: RunningGateway;

  beforeAll(async () => {
    const app = express();
    app.use((_req, res) => {
      res.setHeader('X-Request-Id', 'made-up-by-service');
      res.json({ ok: true });
    });
    upstream = await listen(app);
    gateway = await startTestGateway({ UPSTREAM_BATCH: upstream.url });
  });
  afterAll(async () => {
    await gateway.close();
    await upstream.close();
  });

  it('when it answers, then the caller still gets the id the gateway logged', async () => {
    const res = await request(gateway.url).get('/v1/batches/b1').set('X-Request-Id', 'mine-1');
    expect(res.headers['x-request-id']).toBe('mine-1');
  });
});

describe('forwarding headers', () => {
  let batch: EchoUpstream;
  let gateway: RunningGateway | undefined;

  beforeAll(async () => {
    batch = await echoUpstream('batch');
  });
  afterEach(async () => {
    await gateway?.close();
    gateway = undefined;
  });
  afterAll(async () => {
    await batch.close();
  });

  describe('at the edge (no TRUSTED_PROXIES)', () => {
    it('when the caller spoofs X-Forwarded-For, then the service sees only the address the gateway saw', async () => {
      gateway = await startTestGateway({ UPSTREAM_BATCH: batch.url });
      const res = await request(gateway.url)
        .get('/v1/batches/b1')
        .set('X-Forwarded-For', '6.6.6.6, 10.0.0.1')
        .set('X-Real-IP', '6.6.6.6')
        .set('Forwarded', 'for=6.6.6.6');
      const forwardedFor = String(res.body.headers['x-forwarded-for']);
      expect(forwardedFor).toMatch(LOOPBACK);
      expect(forwardedFor).not.toContain('6.6.6.6');
      expect(res.body.headers['x-real-ip']).toBeUndefined();
      expect(res.body.headers.forwarded).toBeUndefined();
    });

    it('when the caller claims https and another host, then the service sees what the connection used', async () => {
      gateway = await startTestGateway({ UPSTREAM_BATCH: batch.url });
      const res = await request(gateway.url)
        .get('/v1/batches/b1')
        .set('Host', 'api.example.test')
        .set('X-Forwarded-Proto', 'https')
        .set('X-Forwarded-Host', 'evil.example');
      expect(res.body.headers['x-forwarded-proto']).toBe('http');
      expect(res.body.headers['x-forwarded-host']).toBe('api.example.test');
    });
  });

  describe('behind a trusted load balancer (TRUSTED_PROXIES=loopback)', () => {
    it('when the balancer reports the client, then the service sees client and balancer', async () => {
      gateway = await startTestGateway({ UPSTREAM_BATCH: batch.url, TRUSTED_PROXIES: 'loopback' });
      const res = await request(gateway.url)
        .get('/v1/batches/b1')
        .set('X-Forwarded-For', '203.0.113.7')
        .set('X-Forwarded-Proto', 'https')
        .set('X-Forwarded-Host', 'api.example.test');
      const [client, balancer, ...rest] = String(res.body.headers['x-forwarded-for']).split(', ');
      expect(client).toBe('203.0.113.7');
      expect(balancer).toMatch(LOOPBACK);
      expect(rest).toEqual([]);
      expect(res.body.headers['x-forwarded-proto']).toBe('https');
      expect(res.body.headers['x-forwarded-host']).toBe('api.example.test');
    });

    it('when the client spoofed entries before the balancer added its own, then the spoofed ones are dropped', async () => {
      gateway = await startTestGateway({ UPSTREAM_BATCH: batch.url, TRUSTED_PROXIES: 'loopback' });
      const res = await request(gateway.url)
        .get('/v1/batches/b1')
        .set('X-Forwarded-For', '6.6.6.6, 203.0.113.7');
      const forwardedFor = String(res.body.headers['x-forwarded-for']);
      expect(forwardedFor.startsWith('203.0.113.7, ')).toBe(true);
      expect(forwardedFor).not.toContain('6.6.6.6');
    });
  });
});

import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accessLog,
  type EchoUpstream,
  echoUpstream,
  type RunningGateway,
  startTestGateway,
} from './support.js';

describe('health, metrics and the access log', () => {
  let batch: EchoUpstream;
  let numbers: EchoUpstream;
  let gateway: RunningGateway;

  beforeAll(async () => {
    batch = await echoUpstream('batch');
    numbers = await echoUpstream('numbers');
    gateway = await startTestGateway({ UPSTREAM_BATCH: batch.url, UPSTREAM_NUMBERS: numbers.url });
  });
  afterAll(async () => {
    await gateway.close();
    await batch.close();
    await numbers.close();
  });

  it('when /healthz and /readyz are asked, then both answer 200 without asking any service', async () => {
    expect((await request(gateway.url).get('/healthz')).body).toEqual({ status: 'ok' });
    expect((await request(gateway.url).get('/readyz')).body).toEqual({ status: 'ok', checks: {} });
    expect(batch.seen).toEqual([]);
  });

  it('when a readiness check is given and fails, then /readyz answers 503 naming it until it passes', async () => {
    let usable = false;
    const gated = await startTestGateway(
      { UPSTREAM_BATCH: batch.url },
      { readiness: [{ name: 'demo-account', isReady: () => usable }] },
    );
    try {
      const before = await request(gated.url).get('/readyz');
      expect(before.status).toBe(503);
      expect(before.body).toEqual({ status: 'unavailable', checks: { 'demo-account': 'failing' } });
      expect((await request(gated.url).get('/healthz')).status).toBe(200);
      usable = true;
      const after = await request(gated.url).get('/readyz');
      expect(after.status).toBe(200);
      expect(after.body).toEqual({ status: 'ok', checks: { 'demo-account': 'ok' } });
    } finally {
      await gated.close();
    }
  });

  it('when requests were proxied, then /metrics counts them by upstream and status', async () => {
    await request(gateway.url).get('/v1/batches/b1');
    await request(gateway.url).get('/v1/batches/b2/poll');
    await request(gateway.url).get('/v1/sms/send'); // not deployed: 502
    await request(gateway.url).get('/nowhere');
    const res = await request(gateway.url).get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.text).toMatch(/^gateway_requests_total\{upstream="batch",status="200"\} 2$/m);
    expect(res.text).toMatch(/^gateway_requests_total\{upstream="sms",status="502"\} 1$/m);
    expect(res.text).toMatch(/^gateway_requests_total\{upstream="none",status="404"\} 1$/m);
    expect(res.text).toMatch(
      /^gateway_request_duration_seconds_count\{upstream="batch",status="200"\} 2$/m,
    );
  });

  it('when a request is proxied, then one access log line has method, path, upstream, status, duration and request id, and no query string', async () => {
    await request(gateway.url)
      .get('/v1/batches/b9/poll_with_delta?client_secret=s3cret&last_sequence_id=1')
      .set('X-Request-Id', 'log-1');
    const line = accessLog(gateway.lines()).find((entry) => entry.requestId === 'log-1');
    expect(line).toMatchObject({
      method: 'GET',
      path: '/v1/batches/b9/poll_with_delta',
      upstream: 'batch',
      status: 200,
      requestId: 'log-1',
    });
    expect(typeof line?.durationMs).toBe('number');
    expect(JSON.stringify(gateway.lines())).not.toContain('s3cret');
  });

  it('when a number is in the path, then the access log masks it', async () => {
    await request(gateway.url)
      .get('/v1/numbers/+46701234567/porting-history')
      .set('X-Request-Id', 'log-2');
    const line = accessLog(gateway.lines()).find((entry) => entry.requestId === 'log-2');
    expect(line?.path).toBe('/v1/numbers/:redacted/porting-history');
    expect(JSON.stringify(gateway.lines())).not.toContain('46701234567');
  });

  it('when a request is answered by a mounted router (/docs), then the log has the full path', async () => {
    await request(gateway.url).get('/docs/swagger-ui.css').set('X-Request-Id', 'log-3');
    const line = accessLog(gateway.lines()).find((entry) => entry.requestId === 'log-3');
    expect(line).toMatchObject({ path: '/docs/swagger-ui.css', upstream: 'gateway', status: 200 });
  });

  it('when a body is sent, then it is never logged', async () => {
    await request(gateway.url)
      .post('/v1/batches')
      .send({ messages: ['very private text'] });
    expect(JSON.stringify(gateway.lines())).not.toContain('very private text');
  });
});

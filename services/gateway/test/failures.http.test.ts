import express from 'express';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { type Listening, listen, open, type RunningGateway, startTestGateway } from './support.js';

let upstream: Listening | undefined;
let gateway: RunningGateway | undefined;

afterEach(async () => {
  await gateway?.close();
  await upstream?.close();
  gateway = undefined;
  upstream = undefined;
});

/** An address where nothing listens: a server that was just closed. */
async function deadUrl(): Promise<string> {
  const closed = await listen((_req, res) => res.end());
  await closed.close();
  return closed.url;
}

function silentUpstream(): Promise<Listening> {
  const app = express();
  app.use(() => {
    // Never answers.
  });
  return listen(app);
}

describe('upstream down', () => {
  it('when the connection is refused, then 502 BAD_GATEWAY naming the service', async () => {
    gateway = await startTestGateway({ UPSTREAM_BATCH: await deadUrl() });
    const res = await request(gateway.url).get('/v1/batches/b1');
    expect(res.status).toBe(502);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({ code: 'BAD_GATEWAY', message: 'batch is unavailable' });
  });

  it('when the host name does not resolve, then 502', async () => {
    gateway = await startTestGateway({ UPSTREAM_RCS: 'http://rcs.invalid' });
    const res = await request(gateway.url).post('/rcs/v1/messages').send({});
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ code: 'BAD_GATEWAY', message: 'rcs is unavailable' });
  });

  it('when the voice service is unreachable, then 502 in the text-to-voice detail format', async () => {
    gateway = await startTestGateway({ UPSTREAM_VOICE: 'http://voice.invalid' });
    const res = await request(gateway.url).post('/txt2voice/v1/messages').send({});
    expect(res.status).toBe(502);
    expect(res.body).toEqual({
      detail: [{ loc: [], msg: 'voice is unavailable', type: 'bad_gateway' }],
    });
  });

  it('when the voice service is unreachable on the legacy path, then 502 as form text, deprecated', async () => {
    gateway = await startTestGateway({ UPSTREAM_VOICE: 'http://voice.invalid' });
    const res = await request(gateway.url).get('/txt2voice/v1/sendtts?User=u&Pass=p');
    expect(res.status).toBe(502);
    expect(res.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(res.text).toBe('request=false&error=voice is unavailable');
    expect(res.headers.link).toBe('</txt2voice/v1/messages>; rel="successor-version"');
  });

  it.each(['/txt2voice//v1/sendtts', '/txt2voice/x/../v1/sendtts'])(
    'when the legacy path has empty or dot segments (%s), then 404 as form text',
    async (path) => {
      gateway = await startTestGateway({ UPSTREAM_VOICE: 'http://voice.invalid' });
      const res = await request(gateway.url).get(`${path}?User=u&Pass=p`);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
      expect(res.text).toMatch(/^request=false&error=/);
    },
  );

  it('when the service resets the connection, then 502', async () => {
    const app = express();
    app.use((req) => req.socket.destroy());
    upstream = await listen(app);
    gateway = await startTestGateway({ UPSTREAM_SMS: upstream.url });
    const res = await request(gateway.url).post('/v1/sms/send').send({ to: '+46700000000' });
    expect(res.status).toBe(502);
    expect(res.body.code).toBe('BAD_GATEWAY');
  });

  it('when the service failed, then the gateway logs the failure without the request', async () => {
    gateway = await startTestGateway({ UPSTREAM_BATCH: await deadUrl() });
    await request(gateway.url).get('/v1/batches/b1?client_secret=s3cret');
    const failure = gateway.lines().find((line) => line.message === 'upstream failed');
    expect(failure).toMatchObject({ upstream: 'batch', error: 'ECONNREFUSED' });
    expect(JSON.stringify(gateway.lines())).not.toContain('s3cret');
  });
});

describe('upstream slow', () => {
  it('when the service stays silent past UPSTREAM_TIMEOUT_MS, then 504 GATEWAY_TIMEOUT', async () => {
    upstream = await silentUpstream();
    gateway = await startTestGateway({ UPSTREAM_BATCH: upstream.url, UPSTREAM_TIMEOUT_MS: '200' });
    const started = Date.now();
    const res = await request(gateway.url).get('/v1/batches/b1');
    expect(res.status).toBe(504);
    expect(res.body).toEqual({
      code: 'GATEWAY_TIMEOUT',
      message: 'batch is unavailable: no answer within 200 ms',
    });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('when the caller sends Expect: 100-continue, then the upstream timeout still applies', async () => {
    upstream = await silentUpstream();
    gateway = await startTestGateway({ UPSTREAM_BATCH: upstream.url, UPSTREAM_TIMEOUT_MS: '200' });
    const { req, response } = open(gateway.url, '/v1/batches', {
      Expect: '100-continue',
      'Content-Type': 'application/json',
      'Content-Length': 2,
    });
    req.on('continue', () => req.end('{}'));
    const { res, body } = await response;
    expect(res.statusCode).toBe(504);
    expect(JSON.parse(body).code).toBe('GATEWAY_TIMEOUT');
  });

  it('when the service answers within the timeout, then its answer passes', async () => {
    const app = express();
    app.use((_req, res) => {
      setTimeout(() => res.status(201).json({ late: true }), 50);
    });
    upstream = await listen(app);
    gateway = await startTestGateway({ UPSTREAM_BATCH: upstream.url, UPSTREAM_TIMEOUT_MS: '2000' });
    const res = await request(gateway.url).get('/v1/batches/b1');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ late: true });
  });
});

describe('number intelligence routes (application/problem+json)', () => {
  const base = 'https://problems.example.test/numbers';

  it('when numbers is down, then 503 problem+json of type service-unavailable with Retry-After', async () => {
    gateway = await startTestGateway({
      UPSTREAM_NUMBERS: await deadUrl(),
      PROBLEM_TYPE_BASE: base,
    });
    const res = await request(gateway.url).get('/v1/numbers/+46701234567/live-status');
    expect(res.status).toBe(503);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.headers['retry-after']).toMatch(/^\d+$/);
    expect(JSON.parse(res.text)).toEqual({
      type: `${base}/service-unavailable`,
      title: 'Service Unavailable',
      status: 503,
      detail: 'numbers is unavailable',
      instance: '/v1/numbers/+46701234567/live-status',
    });
  });

  it('when numbers is slow, then 503 problem+json too, the detail saying it timed out', async () => {
    upstream = await silentUpstream();
    gateway = await startTestGateway({
      UPSTREAM_NUMBERS: upstream.url,
      UPSTREAM_TIMEOUT_MS: '200',
      PROBLEM_TYPE_BASE: base,
    });
    const res = await request(gateway.url).get('/v1/numbers/46701234567');
    expect(res.status).toBe(503);
    const problem = JSON.parse(res.text);
    expect(problem.type).toBe(`${base}/service-unavailable`);
    expect(problem.detail).toBe('numbers is unavailable: no answer within 200 ms');
  });

  it('when numbers is not deployed, then problem+json as well', async () => {
    gateway = await startTestGateway({ PROBLEM_TYPE_BASE: base });
    const res = await request(gateway.url).get('/v1/numbers/46701234567');
    expect(res.status).toBe(503);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(res.text).detail).toBe('numbers is not deployed');
  });

  it("when the path has empty or dot segments (/v1//numbers/..., /v1/./numbers/...), then 404 in numbers' problem+json", async () => {
    gateway = await startTestGateway({ PROBLEM_TYPE_BASE: base });
    for (const path of [
      '/v1//numbers/46701234567',
      '/v1/numbers//porting-history',
      '/v1/./numbers/46701234567',
      '/v1/x/../numbers/46701234567/live-status',
      '/v1/numbers/../live-status',
    ]) {
      const res = await request(gateway.url).get(path);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(JSON.parse(res.text)).toMatchObject({ type: `${base}/not-found`, instance: path });
    }
  });

  it('when an SMS path has an empty segment, then 404 in the SMS JSON format, never another operation', async () => {
    gateway = await startTestGateway({});
    const res = await request(gateway.url).post('/v1/sms//send').send({});
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('when a path is unknown outside numbers, then the error stays plain JSON', async () => {
    gateway = await startTestGateway({ PROBLEM_TYPE_BASE: base });
    const res = await request(gateway.url).get('/v1/number');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });
});

describe('legacy reply-path routes ({ status, message }, spec 7.3)', () => {
  const DEPRECATION = '@1795478400';
  const SUCCESSOR = '</replypath/v1/sendsms>; rel="successor-version"';

  it('when replypath-legacy is down, then 503 with the status line, Retry-After and the deprecation headers', async () => {
    gateway = await startTestGateway({ UPSTREAM_REPLYPATH_LEGACY: await deadUrl() });
    const res = await request(gateway.url).get('/v1/replypath/sendsms?To=0701234567&Msg=x');
    expect(res.status).toBe(503);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.headers.deprecation).toBe(DEPRECATION);
    expect(res.headers.link).toBe(SUCCESSOR);
    expect(res.body).toEqual({
      status: '503 Service Unavailable',
      message: 'replypath-legacy is unavailable',
    });
  });

  it('when replypath-legacy is slow or not deployed, then 503 as well (the table has no 502 or 504)', async () => {
    upstream = await silentUpstream();
    gateway = await startTestGateway({
      UPSTREAM_REPLYPATH_LEGACY: upstream.url,
      UPSTREAM_TIMEOUT_MS: '200',
    });
    const slow = await request(gateway.url).post('/v1/replypath/sendsms').send({});
    expect(slow.status).toBe(503);
    expect(slow.body).toEqual({
      status: '503 Service Unavailable',
      message: 'replypath-legacy is unavailable: no answer within 200 ms',
    });
    await gateway.close();
    gateway = await startTestGateway({});
    const absent = await request(gateway.url).post('/v1/replypath/sendsms').send({});
    expect(absent.status).toBe(503);
    expect(absent.body).toEqual({
      status: '503 Service Unavailable',
      message: 'replypath-legacy is not deployed',
    });
  });

  it('when the body is over BODY_LIMIT, then 400 (an invalid request in the table of 7.3, not 413)', async () => {
    upstream = await silentUpstream();
    gateway = await startTestGateway({
      UPSTREAM_REPLYPATH_LEGACY: upstream.url,
      BODY_LIMIT: '1kb',
    });
    const res = await request(gateway.url)
      .post('/v1/replypath/sendsms')
      .send({ To: '0701234567', Msg: 'x'.repeat(2000) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      status: '400 Bad Request',
      message: 'Request body larger than 1024 bytes',
    });
  });

  it('when the path has an empty segment, then 404 with the status line', async () => {
    gateway = await startTestGateway({});
    const res = await request(gateway.url).get('/v1//replypath/sendsms?To=0701234567&Msg=x');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      status: '404 Not Found',
      message: 'No operation at this path: it has empty or dot segments',
    });
    expect(res.headers.deprecation).toBe(DEPRECATION);
  });
});

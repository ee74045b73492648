import request from 'supertest';
import { describe, expect, it, vi } from 'vitest';
import { createService } from '../src/create-service.js';
import { captureLogs, messagesService } from './support.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('request id', () => {
  const { app, logs } = messagesService({
    routes(app) {
      app.get('/v1/messages', (req, res) => {
        req.log.info('listing', { accountId: 'acc-1' });
        res.json({ limit: 1, items: [req.requestId] });
      });
    },
  });

  it('when the caller sends a sane X-Request-Id, then it is echoed and given to the handler', async () => {
    const res = await request(app).get('/v1/messages').set('X-Request-Id', 'gw-1234.abc_DEF');
    expect(res.headers['x-request-id']).toBe('gw-1234.abc_DEF');
    expect(res.body.items).toEqual(['gw-1234.abc_DEF']);
  });

  it('when the caller sends no X-Request-Id, then a uuid is made and echoed', async () => {
    const res = await request(app).get('/v1/messages');
    expect(res.headers['x-request-id']).toMatch(UUID);
    expect(res.body.items).toEqual([res.headers['x-request-id']]);
  });

  it('when the X-Request-Id is too long or has odd characters, then it is replaced by a uuid', async () => {
    for (const insane of ['a'.repeat(129), 'id with spaces', 'id\\nforged-log-line', '<script>']) {
      const res = await request(app).get('/v1/messages').set('X-Request-Id', insane);
      expect(res.headers['x-request-id']).toMatch(UUID);
    }
  });

  it('when a handler logs through req.log, then the line carries the request id and service', async () => {
    await request(app).get('/v1/messages').set('X-Request-Id', 'trace-me');
    expect(logs.lines).toContainEqual(
      expect.objectContaining({
        message: 'listing',
        requestId: 'trace-me',
        service: 'messages',
        accountId: 'acc-1',
      }),
    );
  });
});

describe('access log', () => {
  it('when a request is answered, then one line has method, route pattern, status, duration and request id, and no query string', async () => {
    const { app, logs } = messagesService();
    await request(app).get('/v1/messages/m-42?').set('X-Request-Id', 'log-1');
    await request(app).get('/v1/messages?limit=5&pass=hunter2').set('X-Request-Id', 'log-2');
    await vi.waitFor(() =>
      expect(logs.lines.filter((l) => l.message === 'http request')).toHaveLength(2),
    );
    const [first, second] = logs.lines.filter((l) => l.message === 'http request');
    expect(first).toMatchObject({
      method: 'GET',
      route: '/v1/messages/{id}',
      status: 200,
      requestId: 'log-1',
    });
    expect(first?.durationMs).toEqual(expect.any(Number));
    expect(second).toMatchObject({ route: '/v1/messages', status: 400, requestId: 'log-2' });
    expect(JSON.stringify(logs.lines)).not.toMatch(/hunter2|m-42/);
  });
});

describe('/healthz and /readyz', () => {
  it('when the process runs, then /healthz is 200 ok, without any document entry', async () => {
    const { app } = messagesService();
    const res = await request(app).get('/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('when /healthz gets a POST, then 405 with Allow', async () => {
    const { app } = messagesService();
    const res = await request(app).post('/healthz').send({});
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
  });

  it('when a readiness check fails, then /readyz is 503 naming it; when it passes, then 200', async () => {
    let busReady = false;
    const { app } = messagesService({
      readiness: [
        { name: 'bus', isReady: () => busReady },
        { name: 'database', isReady: async () => true },
      ],
    });
    const before = await request(app).get('/readyz');
    expect(before.status).toBe(503);
    expect(before.body).toEqual({
      status: 'unavailable',
      checks: { bus: 'failing', database: 'ok' },
    });

    busReady = true;
    const after = await request(app).get('/readyz');
    expect(after.status).toBe(200);
    expect(after.body).toEqual({ status: 'ok', checks: { bus: 'ok', database: 'ok' } });
  });

  it('when a readiness check throws, then it counts as failing', async () => {
    const { app } = messagesService({
      readiness: [
        {
          name: 'accounts',
          isReady: () => {
            throw new Error('not started');
          },
        },
      ],
    });
    const res = await request(app).get('/readyz');
    expect(res.status).toBe(503);
    expect(res.body.checks).toEqual({ accounts: 'failing' });
  });
});

describe('/metrics', () => {
  it('when requests were answered, then request counts and latency are exposed by route pattern and status', async () => {
    const { app } = messagesService();
    await request(app).get('/v1/messages/m-1');
    await request(app).get('/v1/messages/m-2');
    await request(app).get('/v1/messages/NOPE');
    await request(app).get('/v1/nowhere');
    await vi.waitFor(async () => {
      const res = await request(app).get('/metrics');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.text).toContain(
        'http_requests_total{method="GET",route="/v1/messages/{id}",status="200",service="messages"} 2',
      );
      expect(res.text).toContain(
        'http_requests_total{method="GET",route="/v1/messages/{id}",status="400",service="messages"} 1',
      );
      expect(res.text).toContain(
        'http_requests_total{method="GET",route="unmatched",status="404",service="messages"} 1',
      );
      expect(res.text).toMatch(
        /http_request_duration_seconds_count\{[^}]*route="\/v1\/messages\/\{id\}",status="200"[^}]*\} 2/,
      );
      expect(res.text).not.toMatch(/m-1|m-2/);
    });
  });

  it('when two services run in one process, then each has its own metrics', async () => {
    const first = createService({ name: 'first', logger: captureLogs().logger, routes: () => {} });
    const second = createService({
      name: 'second',
      logger: captureLogs().logger,
      routes: () => {},
    });
    await request(first).get('/healthz');
    await request(first).get('/healthz');
    await vi.waitFor(async () => {
      const res = await request(first).get('/metrics');
      expect(res.text).toContain(
        'http_requests_total{method="GET",route="/healthz",status="200",service="first"} 2',
      );
    });
    const res = await request(second).get('/metrics');
    expect(res.text).not.toContain('route="/healthz"');
  });

  it('when process metrics are asked for, then they are on the service registry', async () => {
    const { app } = messagesService({ processMetrics: true });
    const res = await request(app).get('/metrics');
    expect(res.text).toContain('process_cpu_user_seconds_total');
  });
});

describe('trust proxy', () => {
  function ipService(trustProxy?: string[]) {
    return createService({
      name: 'ip',
      logger: captureLogs().logger,
      ...(trustProxy ? { trustProxy } : {}),
      routes(app) {
        app.get('/ip', (req, res) => {
          res.json({ ip: req.ip });
        });
      },
    });
  }

  it('when the forwarding peer is loopback (the default trust), then req.ip is the forwarded client', async () => {
    const res = await request(ipService()).get('/ip').set('X-Forwarded-For', '203.0.113.7');
    expect(res.body.ip).toBe('203.0.113.7');
  });

  it('when the forwarding peer is not a trusted gateway address, then X-Forwarded-For is ignored', async () => {
    const res = await request(ipService(['10.1.2.3']))
      .get('/ip')
      .set('X-Forwarded-For', '203.0.113.7');
    expect(res.body.ip).toMatch(/127\.0\.0\.1|::1/);
  });
});

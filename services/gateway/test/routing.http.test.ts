import { INTERNAL_DOCUMENTS, internalDocumentPath, readOpenApiDocument } from '@msg/contracts';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES, UPSTREAM_SERVICES, type UpstreamService } from '../src/routes.js';
import {
  type EchoUpstream,
  echoUpstream,
  open,
  type RunningGateway,
  startTestGateway,
} from './support.js';

const ENV_NAME: Record<UpstreamService, string> = {
  sms: 'UPSTREAM_SMS',
  batch: 'UPSTREAM_BATCH',
  replypath: 'UPSTREAM_REPLYPATH',
  'replypath-legacy': 'UPSTREAM_REPLYPATH_LEGACY',
  rcs: 'UPSTREAM_RCS',
  voice: 'UPSTREAM_VOICE',
  numbers: 'UPSTREAM_NUMBERS',
  'lookup-legacy': 'UPSTREAM_LOOKUP_LEGACY',
  notifier: 'UPSTREAM_NOTIFIER',
};

describe('routing public paths to services', () => {
  const upstreams = new Map<UpstreamService, EchoUpstream>();
  let gateway: RunningGateway;

  beforeAll(async () => {
    for (const service of UPSTREAM_SERVICES) upstreams.set(service, await echoUpstream(service));
    const env: Record<string, string> = {};
    for (const [service, upstream] of upstreams) env[ENV_NAME[service]] = upstream.url;
    gateway = await startTestGateway(env);
  });

  afterAll(async () => {
    await gateway.close();
    for (const upstream of upstreams.values()) await upstream.close();
  });

  describe.each(ROUTES.map((route) => [route.prefix, route.service] as const))(
    'prefix %s',
    (prefix, service) => {
      it(`when a request goes below ${prefix}, then ${service} gets it with path and query unchanged`, async () => {
        const path = `${prefix}/some/deeper/path?User=alice&Pass=secret`;
        const res = await request(gateway.url).post(path).send({ hello: 'world' });
        expect(res.status).toBe(200);
        expect(res.body.service).toBe(service);
        expect(res.body.method).toBe('POST');
        expect(res.body.url).toBe(path);
        expect(res.body.bodyBytes).toBe(JSON.stringify({ hello: 'world' }).length);
      });

      // A trailing slash is the service's business (its router takes it as the path without):
      // the gateway forwards it and the body as they are, neither refused nor redirected.
      it(`when a POST to ${prefix}/ ends in a slash, then ${service} gets it unchanged, body included`, async () => {
        const res = await request(gateway.url).post(`${prefix}/`).send({ hello: 'world' });
        expect(res.status).toBe(200);
        expect(res.body.service).toBe(service);
        expect(res.body.url).toBe(`${prefix}/`);
        expect(res.body.bodyBytes).toBe(JSON.stringify({ hello: 'world' }).length);
      });

      it(`when the path is exactly ${prefix}, then ${service} gets it`, async () => {
        const res = await request(gateway.url).get(prefix);
        expect(res.status).toBe(200);
        expect(res.body.service).toBe(service);
      });

      it(`when a path only starts with the letters of ${prefix}, then it is not routed`, async () => {
        const res = await request(gateway.url).get(`${prefix}x`);
        expect(res.status).toBe(404);
      });
    },
  );

  it('when the routing table is read, then every upstream service owns at least one prefix', () => {
    const routed = new Set(ROUTES.map((route) => route.service));
    expect([...routed].sort()).toEqual([...UPSTREAM_SERVICES].sort());
  });

  it('when a service answers, then it sees its own host in Host and the public one in X-Forwarded-Host', async () => {
    const res = await request(gateway.url).get('/v1/batches/b1').set('Host', 'api.example.test');
    const batch = upstreams.get('batch');
    expect(res.body.headers.host).toBe(new URL(batch?.url ?? '').host);
    expect(res.body.headers['x-forwarded-host']).toBe('api.example.test');
  });

  it('when a path belongs to no public interface, then 404 with a JSON error body', async () => {
    const res = await request(gateway.url).get('/v2/unknown?token=abc');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({ code: 'NOT_FOUND', message: 'No public interface at this path' });
  });

  describe('legacy reply-path (/v1/replypath) and the current one (/replypath/v1)', () => {
    it.each([
      ['GET', '/v1/replypath/sendsms?To=0701234567&Msg=Hej%20d%C3%A5', 'replypath-legacy'],
      ['GET', '/v1/replypath/sendsms/%2B46701234567/ja%2Fnej', 'replypath-legacy'],
      ['POST', '/v1/replypath/sendsms', 'replypath-legacy'],
      ['POST', '/replypath/v1/sendsms', 'replypath'],
    ] as const)(
      'when %s %s arrives, then %s gets it, path and query unchanged',
      async (method, path, service) => {
        const res = await request(gateway.url)[method === 'GET' ? 'get' : 'post'](path);
        expect(res.status).toBe(200);
        expect(res.body.service).toBe(service);
        expect(res.body.url).toBe(path);
      },
    );

    it('when no other prefix could catch /v1/replypath, then only the legacy service ever sees it', async () => {
      const before = new Map([...upstreams].map(([name, u]) => [name, u.seen.length]));
      await request(gateway.url).get('/v1/replypath/sendsms?To=0701234567&Msg=x');
      for (const [name, upstream] of upstreams) {
        const added = upstream.seen.length - (before.get(name) ?? 0);
        expect(added, name).toBe(name === 'replypath-legacy' ? 1 : 0);
      }
    });

    it('when a POST comes chunked, then it reaches the service chunked, without a Content-Length (the service answers 411)', async () => {
      const { req, response } = open(gateway.url, '/v1/replypath/sendsms', {
        'content-type': 'application/json',
        'transfer-encoding': 'chunked',
      });
      req.write('{"To":"0701234567",');
      req.end('"Msg":"x"}');
      const { res, body } = await response;
      expect(res.statusCode).toBe(200);
      const seen = JSON.parse(body);
      expect(seen.headers['transfer-encoding']).toBe('chunked');
      expect(seen.headers['content-length']).toBeUndefined();
      expect(seen.bodyBytes).toBe(29);
    });

    it('when a POST has a Content-Length, then the service gets the same one', async () => {
      const body = JSON.stringify({ To: '0701234567', Msg: 'x' });
      const res = await request(gateway.url).post('/v1/replypath/sendsms').type('json').send(body);
      expect(res.body.headers['content-length']).toBe(String(body.length));
    });
  });

  describe('internal operations (admin, and the internal documents of rcs, replypath, numbers)', () => {
    const internalPaths = INTERNAL_DOCUMENTS.flatMap((name) =>
      Object.keys(readOpenApiDocument(internalDocumentPath(name)).paths),
    ).map((path) => path.replace(/\{[^}]+\}/g, 'x'));

    it('when the internal documents are read, then they have paths to try', () => {
      expect(internalPaths.length).toBeGreaterThan(20);
    });

    it('when any internal path is requested, then 404 and no service sees it', async () => {
      const before = [...upstreams.values()].reduce((n, u) => n + u.seen.length, 0);
      for (const path of [...internalPaths, '/admin', '/internal/v1/accounts']) {
        for (const method of ['get', 'post'] as const) {
          const res = await request(gateway.url)[method](path).set('Authorization', 'Bearer x');
          expect(res.status, `${method} ${path}`).toBe(404);
        }
      }
      const after = [...upstreams.values()].reduce((n, u) => n + u.seen.length, 0);
      expect(after).toBe(before);
    });
  });
});

describe('a service without an upstream URL', () => {
  it('when its path is requested, then 502 says it is not deployed', async () => {
    const gateway = await startTestGateway({});
    try {
      const res = await request(gateway.url).post('/v1/sms/send').send({});
      expect(res.status).toBe(502);
      expect(res.body).toEqual({ code: 'BAD_GATEWAY', message: 'sms is not deployed' });
    } finally {
      await gateway.close();
    }
  });
});

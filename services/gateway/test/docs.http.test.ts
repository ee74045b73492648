import { eventContracts } from '@msg/contracts';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { contractsOpenapiDir, listApiDocuments } from '../src/api-docs.js';
import { type RunningGateway, startTestGateway } from './support.js';

describe('API docs', () => {
  let gateway: RunningGateway;

  beforeAll(async () => {
    gateway = await startTestGateway({});
  });
  afterAll(async () => {
    await gateway.close();
  });

  it('when the contracts are listed, then every public document is there and admin is not', () => {
    const names = listApiDocuments(contractsOpenapiDir()).map((doc) => doc.name);
    expect(names).toContain('batch');
    expect(names).toContain('gateway');
    expect(names).not.toContain('admin');
  });

  it('when /docs is requested, then it redirects to /docs/ so the page assets resolve', async () => {
    const res = await request(gateway.url).get('/docs');
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe('/docs/');
  });

  it('when /docs/ is requested, then Swagger UI HTML comes back', async () => {
    const res = await request(gateway.url).get('/docs/');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('swagger-ui');
  });

  it('when the UI loads its init script, then it offers every public document in the drop-down', async () => {
    const res = await request(gateway.url).get('/docs/swagger-ui-init.js');
    expect(res.status).toBe(200);
    for (const doc of listApiDocuments()) {
      expect(res.text).toContain(`./openapi/${doc.name}.yaml`);
    }
    expect(res.text).not.toContain('admin.yaml');
  });

  it('when a document is requested raw, then its YAML comes back', async () => {
    const res = await request(gateway.url).get('/docs/openapi/batch.yaml');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/yaml/);
    expect(res.text).toMatch(/^openapi: 3\./m);
    expect(res.text).toContain('/v1/oauth/token');
  });

  it('when every document of the drop-down is fetched, then none lists an /internal/ operation (the gateway routes none) and each names the gateway as its server', async () => {
    for (const doc of listApiDocuments()) {
      const res = await request(gateway.url).get(`/docs/openapi/${doc.name}.yaml`);
      const document = parse(res.text) as { paths: object; servers: { url: string }[] };
      const internal = Object.keys(document.paths).filter((path) => path.startsWith('/internal/'));
      expect(internal, doc.name).toEqual([]);
      expect(
        document.servers.map((server) => server.url),
        doc.name,
      ).toEqual(['/']);
    }
  });

  it('when the page loads its assets, then they are served', async () => {
    for (const asset of ['/docs/swagger-ui.css', '/docs/swagger-ui-bundle.js']) {
      expect((await request(gateway.url).get(asset)).status, asset).toBe(200);
    }
  });

  it('when the internal admin document or anything else is requested, then 404', async () => {
    for (const path of [
      '/docs/index.html',
      '/docs/package.json',
      '/docs/openapi/admin.yaml',
      '/docs/openapi/..%2Fpackage.json',
      '/docs/openapi/nope.yaml',
    ]) {
      const res = await request(gateway.url).get(path);
      expect(res.status, path).toBe(404);
    }
  });
});

describe('event docs', () => {
  let gateway: RunningGateway;

  beforeAll(async () => {
    gateway = await startTestGateway({});
  });
  afterAll(async () => {
    await gateway.close();
  });

  it('when /docs/events/ is requested, then a page rendering the AsyncAPI document with its own assets comes back', async () => {
    const res = await request(gateway.url).get('/docs/events/');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    for (const asset of ['./asyncapi.js', './asyncapi.css', './render.js']) {
      expect(res.text).toContain(asset);
    }
    const render = await request(gateway.url).get('/docs/events/render.js');
    expect(render.text).toContain('AsyncApiStandalone.render');
    expect(render.text).toContain('../asyncapi/events.yaml');
    const bundle = await request(gateway.url).get('/docs/events/asyncapi.js');
    expect(bundle.status).toBe(200);
    expect(bundle.text).toContain('AsyncApiStandalone');
    expect((await request(gateway.url).get('/docs/events/asyncapi.css')).status).toBe(200);
  });

  it('when /docs/events is requested, then it redirects to /docs/events/', async () => {
    const res = await request(gateway.url).get('/docs/events');
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe('/docs/events/');
  });

  it('when the raw AsyncAPI document is requested, then its YAML lists every topic with a contract', async () => {
    const res = await request(gateway.url).get('/docs/asyncapi/events.yaml');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/yaml/);
    expect(res.text).toMatch(/^asyncapi: 3\.0\.0/m);
    for (const topic of Object.keys(eventContracts)) {
      expect(res.text).toContain(`address: ${topic}`);
    }
  });

  it('when the Swagger UI page loads, then it links to the event docs', async () => {
    const page = await request(gateway.url).get('/docs/');
    expect(page.text).toContain('./events/link.js');
    const link = await request(gateway.url).get('/docs/events/link.js');
    expect(link.status).toBe(200);
    expect(link.text).toContain("href: './events/'");
  });
});

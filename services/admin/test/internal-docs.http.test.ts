import { INTERNAL_DOCUMENTS } from '@msg/contracts';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startTestAdmin } from './support.js';

let admin: Awaited<ReturnType<typeof startTestAdmin>>;

beforeAll(async () => {
  admin = await startTestAdmin();
}, 60_000);
afterAll(async () => {
  await admin?.stop();
});

/** Issue 23 item 8: the internal operations left the public documents; operators read them here. */
describe('internal API docs on the admin port', () => {
  it('when /docs/ is requested, then Swagger UI offers every internal document', async () => {
    const page = await request(admin.app).get('/docs/');
    expect(page.status).toBe(200);
    expect(page.text).toContain('swagger-ui');
    const init = await request(admin.app).get('/docs/swagger-ui-init.js');
    for (const name of INTERNAL_DOCUMENTS) expect(init.text).toContain(`./openapi/${name}.yaml`);
  });

  it('when an internal document is requested, then it holds only /internal/ operations and names nothing outside itself', async () => {
    for (const name of INTERNAL_DOCUMENTS) {
      const res = await request(admin.app).get(`/docs/openapi/${name}.yaml`);
      expect(res.status, name).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/yaml/);
      const document = parse(res.text) as { paths: Record<string, unknown> };
      const paths = Object.keys(document.paths);
      expect(paths.length, name).toBeGreaterThan(0);
      expect(
        paths.every((path) => path.startsWith('/internal/')),
        name,
      ).toBe(true);
      expect(res.text, name).not.toMatch(/\$ref: \S*\.yaml#/);
    }
    const rcs = await request(admin.app).get('/docs/openapi/rcs.yaml');
    expect(rcs.text).toContain('/internal/v1/agents/{agent_id}/accounts/{account}:');
  });

  it('when the docs are asked for, then no token is needed, and an unknown document is 404', async () => {
    expect((await request(admin.app).get('/docs/openapi/sms.yaml')).status).toBe(404);
    expect((await request(admin.app).get('/docs/openapi/..%2Fsms.yaml')).status).toBe(404);
  });
});

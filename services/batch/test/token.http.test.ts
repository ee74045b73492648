import { createJwtService } from '@msg/auth';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBatchConfig } from '../src/config.js';
import { API_KEY, TEST_KEY as KEY, startTestBatch, type TestBatchService } from './support.js';

const env = { JWT_KEYS: `${KEY.kid}:${KEY.secret}`, JWT_ACTIVE_KID: KEY.kid, LOG_LEVEL: 'error' };
let batch: TestBatchService;
let app: TestBatchService['app'];
const account: TestBatchService['account'] = (overrides) => batch.account(overrides);
const publish = (state: Parameters<TestBatchService['publishAccount']>[0]) =>
  batch.publishAccount(state);

beforeAll(async () => {
  batch = await startTestBatch();
  app = batch.app;
}, 60_000);

afterAll(async () => {
  await batch?.stop();
});

const token = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  request(app).post('/v1/oauth/token').set(headers).send(body);

describe('createAccessToken', () => {
  it('when the credentials are right, then a bearer JWT for the account comes back, not cacheable', async () => {
    const acct = account();
    await publish(acct);
    const res = await token({
      client_id: acct.name,
      client_secret: API_KEY,
      grant_type: 'client_credentials',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token_type: 'bearer', expires_in: 3600 });
    expect(res.headers['cache-control']).toBe('no-store');
    const verifier = createJwtService({
      issuer: 'messaging-platform',
      audience: 'batch-sms',
      keys: [KEY],
      activeKid: KEY.kid,
      ttlSeconds: 3600,
    });
    expect(verifier.verify(res.body.access_token).sub).toBe(acct.id);
    const header = JSON.parse(
      Buffer.from(res.body.access_token.split('.')[0], 'base64url').toString(),
    );
    expect(header).toMatchObject({ alg: 'HS256', kid: KEY.kid });
  });

  it('when client_id differs only in letter case and grant_type is left out, then it still works', async () => {
    const acct = account();
    await publish(acct);
    expect(
      (await token({ client_id: acct.name.toUpperCase(), client_secret: API_KEY })).status,
    ).toBe(200);
  });

  it('when the body is form-encoded, then it is read like JSON', async () => {
    const acct = account();
    await publish(acct);
    const res = await request(app)
      .post('/v1/oauth/token')
      .type('form')
      .send(`client_id=${acct.name}&client_secret=${API_KEY}&grant_type=client_credentials`);
    expect(res.status).toBe(200);
  });

  it('when the secret is wrong or the client unknown, then 401 naming no account detail', async () => {
    const acct = account();
    await publish(acct);
    const wrong = await token({ client_id: acct.name, client_secret: `${API_KEY}x` });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ code: 'UNAUTHORIZED' });
    const unknown = await token({ client_id: 'nobody', client_secret: API_KEY });
    expect(unknown.status).toBe(401);
    expect(unknown.body.message).toBe(wrong.body.message);
  });

  it('when the key is revoked by a newer account state, then 401', async () => {
    const acct = account();
    await publish(acct);
    expect((await token({ client_id: acct.name, client_secret: API_KEY })).status).toBe(200);
    await publish({ ...acct, apiKeys: [], version: acct.version + 1 });
    expect((await token({ client_id: acct.name, client_secret: API_KEY })).status).toBe(401);
  });

  it.each([
    ['the account is disabled', { status: 'disabled' as const }, /disabled/],
    ['batch SMS is not enabled', { permissions: ['sms' as const] }, /not enabled/],
    ['the caller is outside the IP allow-list', { ipAllowList: ['10.0.0.0/8'] }, /allow-list/],
  ])('when %s, then 403', async (_case, overrides, message) => {
    const acct = account(overrides);
    await publish(acct);
    const res = await token({ client_id: acct.name, client_secret: API_KEY });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'FORBIDDEN', message: expect.stringMatching(message) });
  });

  it('when the gateway (a trusted loopback proxy) forwards the caller address, then the allow-list uses it', async () => {
    const acct = account({ ipAllowList: ['10.0.0.0/8'] });
    await publish(acct);
    const res = await token(
      { client_id: acct.name, client_secret: API_KEY },
      { 'x-forwarded-for': '10.1.2.3' },
    );
    expect(res.status).toBe(200);
  });

  it('when the account rate is exceeded, then 429 with Retry-After', async () => {
    const acct = account({ rateLimit: { perSecond: 1, burst: 2 } });
    await publish(acct);
    const statuses = [];
    for (let i = 0; i < 3; i += 1) {
      statuses.push(await token({ client_id: acct.name, client_secret: API_KEY }));
    }
    expect(statuses.map((r) => r.status)).toEqual([200, 200, 429]);
    expect(Number(statuses[2]?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(statuses[2]?.body.code).toBe('RATE_LIMITED');
  });

  it.each([
    [{ client_id: 'x' }, 'client_secret'],
    [{ client_secret: 'x' }, 'client_id'],
    [{ client_id: 'x', client_secret: 'y', grant_type: 'password' }, 'grant_type'],
    [{ client_id: 5, client_secret: 'y' }, 'client_id'],
    [{ client_id: 'x', client_secret: 'y', scope: 'all' }, 'scope'],
  ])('when the body is %j, then 400 naming %s', async (body, field) => {
    const res = await token(body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(JSON.stringify(res.body)).toContain(field);
  });

  it('when the JSON is malformed, then 400; when the type is wrong, then 415', async () => {
    const malformed = await request(app)
      .post('/v1/oauth/token')
      .set('content-type', 'application/json')
      .send('{"client_id":');
    expect(malformed.status).toBe(400);
    const text = await request(app)
      .post('/v1/oauth/token')
      .set('content-type', 'text/plain')
      .send('x');
    expect(text.status).toBe(415);
  });
});

describe('getBatchHealth and probes', () => {
  it('when asked, then status OK; readiness is 200 once the directory caught up', async () => {
    expect((await request(app).get('/v1/health/batches')).body).toEqual({ status: 'OK' });
    expect((await request(app).get('/readyz')).status).toBe(200);
    expect((await request(app).get('/healthz')).status).toBe(200);
  });
});

describe('loadBatchConfig', () => {
  it('when the active kid is not a kid of the key ring, then start-up is refused naming it', () => {
    expect(() => loadBatchConfig({ ...env, JWT_ACTIVE_KID: 'other' })).toThrow(/JWT_ACTIVE_KID/);
  });

  it('when a signing secret is shorter than 32 characters, then JWT_KEYS is refused without printing it', () => {
    let message = '';
    try {
      loadBatchConfig({ ...env, JWT_KEYS: 'k:short-secret' });
    } catch (error) {
      message = String(error);
    }
    expect(message).toMatch(/JWT_KEYS/);
    expect(message).not.toContain('short-secret');
  });
});

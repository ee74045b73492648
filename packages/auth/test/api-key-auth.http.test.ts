import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { authenticate, createPassport } from '../src/authenticate.js';
import { createCredentialVerifier } from '../src/credential-verifier.js';
import { requireActive } from '../src/guards.js';
import { hashSecret } from '../src/secret-hash.js';
import { apiKeyStrategy } from '../src/strategies/api-key-strategy.js';
import { createStaticDirectory, FAST_SCRYPT, makeAccount } from './support/accounts.js';
import { createTestApp, whoami } from './support/app.js';

const KEY = 'msgk_live-key';
let directory: ReturnType<typeof createStaticDirectory>;
let rcs: ReturnType<typeof makeAccount>;

beforeAll(async () => {
  const hash = await hashSecret(KEY, FAST_SCRYPT);
  rcs = makeAccount({
    name: 'rcs-client',
    apiKeys: [{ id: 'k1', hash, createdAt: '2025-01-01T00:00:00Z' }],
  });
  const disabled = makeAccount({
    name: 'gone',
    status: 'disabled',
    apiKeys: [{ id: 'k2', hash, createdAt: '2025-01-01T00:00:00Z' }],
  });
  directory = createStaticDirectory(rcs, disabled);
});

function app() {
  const passport = createPassport({
    apiKey: apiKeyStrategy(createCredentialVerifier({ directory })),
  });
  return createTestApp((a) =>
    a.get('/me', authenticate(passport, 'apiKey'), requireActive(), whoami),
  );
}

describe('API key authentication', () => {
  it('when X-API-Key and X-Client-ID match, then the request carries the account', async () => {
    const res = await request(app())
      .get('/me')
      .set('X-API-Key', KEY)
      .set('X-Client-ID', 'rcs-client');

    expect(res.status).toBe(200);
    expect(res.body.id).toBe(rcs.id);
  });

  it.each([
    ['X-API-Key is missing', { 'X-Client-ID': 'rcs-client' }],
    ['X-Client-ID is missing', { 'X-API-Key': KEY }],
    ['both are missing', {}],
  ])('when %s, then 401 naming the headers', async (_case, headers) => {
    const res = await request(app()).get('/me').set(headers);

    expect(res.status).toBe(401);
    expect(res.body.message).toBe('X-API-Key and X-Client-ID headers are required');
    expect(res.headers['www-authenticate']).toBeUndefined();
  });

  it('when the key is wrong or belongs to another client, then 401', async () => {
    const wrongKey = await request(app())
      .get('/me')
      .set('X-API-Key', 'msgk_nope')
      .set('X-Client-ID', 'rcs-client');
    const otherClient = await request(app())
      .get('/me')
      .set('X-API-Key', KEY)
      .set('X-Client-ID', 'someone');

    expect(wrongKey.status).toBe(401);
    expect(wrongKey.body.message).toBe('Missing or invalid API key');
    expect(otherClient.status).toBe(401);
  });

  it('when the key was revoked, then 401', async () => {
    directory.put({ ...rcs, apiKeys: [], version: rcs.version + 1 });
    try {
      const res = await request(app())
        .get('/me')
        .set('X-API-Key', KEY)
        .set('X-Client-ID', 'rcs-client');

      expect(res.status).toBe(401);
    } finally {
      directory.put(rcs);
    }
  });

  it('when the account is disabled, then 403', async () => {
    const res = await request(app()).get('/me').set('X-API-Key', KEY).set('X-Client-ID', 'gone');

    expect(res.status).toBe(403);
  });
});

import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { basicAccountAccess } from '../src/account-access.js';
import { createCredentialVerifier } from '../src/credential-verifier.js';
import { createRateLimiter } from '../src/rate-limiter.js';
import { hashSecret } from '../src/secret-hash.js';
import { createStaticDirectory, FAST_SCRYPT, makeAccount } from './support/accounts.js';
import { createTestApp, whoami } from './support/app.js';

const basic = (raw: string) => `Basic ${Buffer.from(raw).toString('base64')}`;
let directory: ReturnType<typeof createStaticDirectory>;

beforeAll(async () => {
  const passwordHash = await hashSecret('pw', FAST_SCRYPT);
  directory = createStaticDirectory(
    makeAccount({ name: 'numbers-only', passwordHash, permissions: ['numbers'] }),
    makeAccount({ name: 'both', passwordHash, permissions: ['numbers', 'lookup'] }),
    makeAccount({ name: 'off', passwordHash, permissions: ['lookup'], status: 'disabled' }),
    makeAccount({
      name: 'fenced',
      passwordHash,
      permissions: ['lookup'],
      ipAllowList: ['10.0.0.0/8'],
    }),
    makeAccount({
      name: 'slow',
      passwordHash,
      permissions: ['lookup', 'numbers'],
      rateLimit: { perSecond: 1, burst: 2 },
    }),
  );
});

function app(limiter = createRateLimiter()) {
  const verifier = createCredentialVerifier({ directory });
  const lookup = basicAccountAccess(verifier, { realm: 'Lookup', permission: 'lookup', limiter });
  const numbers = basicAccountAccess(verifier, { realm: 'N', permission: 'numbers', limiter });
  return createTestApp((a) => {
    a.get('/lookup', lookup, whoami);
    a.get('/numbers', numbers, whoami);
  });
}

describe('basicAccountAccess', () => {
  it('when the account has the permission, then it passes; without it, 403', async () => {
    const server = app();
    expect(
      (await request(server).get('/lookup').set('Authorization', basic('both:pw'))).status,
    ).toBe(200);
    const refused = await request(server)
      .get('/lookup')
      .set('Authorization', basic('numbers-only:pw'));
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/lookup/);
  });

  it('when credentials are missing, then 401 with the realm of the interface', async () => {
    const res = await request(app()).get('/lookup');
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Basic realm="Lookup"');
  });

  it('when the account is disabled or calls from outside its allow-list, then 403', async () => {
    const server = app();
    expect(
      (await request(server).get('/lookup').set('Authorization', basic('off:pw'))).status,
    ).toBe(403);
    expect(
      (await request(server).get('/lookup').set('Authorization', basic('fenced:pw'))).status,
    ).toBe(403);
  });

  it('when the burst is spent, then 429 with Retry-After, counted per interface', async () => {
    const server = app();
    const call = (path: string) => request(server).get(path).set('Authorization', basic('slow:pw'));
    expect((await call('/lookup')).status).toBe(200);
    expect((await call('/lookup')).status).toBe(200);
    const limited = await call('/lookup');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Another interface of the same account has a bucket of its own.
    expect((await call('/numbers')).status).toBe(200);
  });
});

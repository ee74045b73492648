import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { authenticate, createPassport } from '../src/authenticate.js';
import { requireActive } from '../src/guards.js';
import { createJwtService, type JwtServiceOptions } from '../src/jwt-service.js';
import { bearerStrategy } from '../src/strategies/bearer-strategy.js';
import { createStaticDirectory, makeAccount } from './support/accounts.js';
import { createTestApp, whoami } from './support/app.js';

const OLD_KEY = { kid: '2024', secret: 'o'.repeat(32) };
const NEW_KEY = { kid: '2025', secret: 'n'.repeat(32) };
const BASE: JwtServiceOptions = {
  issuer: 'batch',
  audience: 'batch-api',
  keys: [OLD_KEY, NEW_KEY],
  activeKid: '2025',
  ttlSeconds: 300,
};

const acme = makeAccount({ name: 'acme' });
const disabled = makeAccount({ name: 'gone', status: 'disabled' });
const directory = createStaticDirectory(acme, disabled);
const jwt = createJwtService(BASE);

function app(service = jwt) {
  const passport = createPassport({
    bearer: bearerStrategy(service, directory, { realm: 'batch' }),
  });
  return createTestApp((a) =>
    a.get('/me', authenticate(passport, 'bearer'), requireActive(), whoami),
  );
}

const INVALID = 'Bearer realm="batch", error="invalid_token"';

describe('Bearer authentication', () => {
  it('when the token is valid, then the request carries the account from the directory', async () => {
    const res = await request(app())
      .get('/me')
      .set('Authorization', `Bearer ${jwt.sign(acme).token}`);

    expect(res.status).toBe(200);
    expect(res.body.id).toBe(acme.id);
  });

  it('when no token is sent, then 401 with a bare Bearer challenge (RFC 6750 §3.1)', async () => {
    const res = await request(app()).get('/me');

    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="batch"');
  });

  it.each([
    [
      'expired',
      () => createJwtService({ ...BASE, now: () => Date.now() - 3_600_000 }).sign(acme).token,
    ],
    ['for another audience', () => createJwtService({ ...BASE, audience: 'rcs' }).sign(acme).token],
    [
      'from another issuer',
      () => createJwtService({ ...BASE, issuer: 'someone' }).sign(acme).token,
    ],
    [
      'signed with an unknown kid',
      () =>
        createJwtService({
          ...BASE,
          keys: [{ kid: 'x', secret: 'x'.repeat(32) }],
          activeKid: 'x',
        }).sign(acme).token,
    ],
    [
      'tampered',
      () => {
        const [h, p, s] = jwt.sign(acme).token.split('.');
        const claims = JSON.parse(Buffer.from(p ?? '', 'base64url').toString());
        return `${h}.${Buffer.from(JSON.stringify({ ...claims, sub: disabled.id })).toString('base64url')}.${s}`;
      },
    ],
    ['garbage', () => 'abc'],
    ['for an account that no longer exists', () => jwt.sign(makeAccount({ name: 'ghost' })).token],
  ])('when the token is %s, then 401 with error="invalid_token"', async (_case, token) => {
    const res = await request(app()).get('/me').set('Authorization', `Bearer ${token()}`);

    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer realm="batch", error="invalid_token"/);
  });

  it('when the token has expired, then the challenge says so', async () => {
    const stale = createJwtService({ ...BASE, now: () => Date.now() - 3_600_000 }).sign(acme).token;

    const res = await request(app()).get('/me').set('Authorization', `Bearer ${stale}`);

    expect(res.headers['www-authenticate']).toBe(`${INVALID}, error_description="token expired"`);
  });

  it('when the Authorization header is malformed, then 401 with the invalid_token challenge, not a bare 400', async () => {
    const res = await request(app()).get('/me').set('Authorization', 'Bearer a b');

    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe(INVALID);
  });

  it('when the token is sent in the query string, then it is refused', async () => {
    const res = await request(app())
      .get('/me')
      .query({ access_token: jwt.sign(acme).token });

    expect(res.status).toBe(401);
  });

  it('when the signing key rotates, then tokens of the old kid work until that key is removed', async () => {
    const oldToken = createJwtService({ ...BASE, activeKid: '2024' }).sign(acme).token;

    const whileConfigured = await request(app())
      .get('/me')
      .set('Authorization', `Bearer ${oldToken}`);
    const retiredService = createJwtService({ ...BASE, keys: [NEW_KEY] });
    const afterRemoval = await request(app(retiredService))
      .get('/me')
      .set('Authorization', `Bearer ${oldToken}`);

    expect(whileConfigured.status).toBe(200);
    expect(afterRemoval.status).toBe(401);
  });

  it('when the account behind a valid token is disabled, then 403', async () => {
    const res = await request(app())
      .get('/me')
      .set('Authorization', `Bearer ${jwt.sign(disabled).token}`);

    expect(res.status).toBe(403);
  });
});

import { UnauthorizedError } from '@msg/http';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { authenticate, createPassport } from '../src/authenticate.js';
import { createCredentialVerifier } from '../src/credential-verifier.js';
import { requireActive } from '../src/guards.js';
import { hashSecret } from '../src/secret-hash.js';
import { basicStrategy } from '../src/strategies/basic-strategy.js';
import { createStaticDirectory, FAST_SCRYPT, makeAccount } from './support/accounts.js';
import { createTestApp, whoami } from './support/app.js';

const basic = (raw: string) => `Basic ${Buffer.from(raw).toString('base64')}`;

let directory: ReturnType<typeof createStaticDirectory>;
let acme: ReturnType<typeof makeAccount>;

beforeAll(async () => {
  acme = makeAccount({ name: 'Acme', passwordHash: await hashSecret('pa:ss', FAST_SCRYPT) });
  const disabled = makeAccount({
    name: 'gone',
    status: 'disabled',
    passwordHash: await hashSecret('pw', FAST_SCRYPT),
  });
  directory = createStaticDirectory(acme, disabled);
});

function app(options: Parameters<typeof authenticate>[2] = {}) {
  const passport = createPassport({
    basic: basicStrategy(createCredentialVerifier({ directory }), { realm: 'numbers' }),
  });
  return createTestApp((a) =>
    a.get('/me', authenticate(passport, 'basic', options), requireActive(), whoami),
  );
}

describe('Basic authentication', () => {
  it('when the credentials are right, then the request carries the account', async () => {
    const res = await request(app()).get('/me').set('Authorization', basic('acme:pa:ss'));

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: acme.id, name: 'Acme' });
  });

  it('when the username differs in case, then it still authenticates', async () => {
    const res = await request(app()).get('/me').set('Authorization', basic('ACME:pa:ss'));

    expect(res.status).toBe(200);
  });

  it.each([
    ['no Authorization header', undefined],
    ['a wrong password', basic('acme:pa:sS')],
    ['the password with extra text after a colon', basic('acme:pa:ss:extra')],
    ['only the part of the password before its colon', basic('acme:pa')],
    ['an unknown user', basic('nobody:pa:ss')],
    ['a malformed Basic header', 'Basic'],
    ['credentials without a colon', basic('acme')],
    ['another scheme', 'Bearer abc.def.ghi'],
  ])('when the request has %s, then 401 with a Basic challenge', async (_case, header) => {
    const req = request(app()).get('/me');
    const res = await (header === undefined ? req : req.set('Authorization', header));

    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Basic realm="numbers"');
    expect(res.body).toEqual({ code: 'UNAUTHORIZED', message: 'Missing or invalid credentials' });
  });

  it('when valid and invalid requests run concurrently, then each gets its own outcome', async () => {
    const server = app();
    const headers = Array.from({ length: 12 }, (_, i) =>
      i % 2 === 0 ? basic('acme:pa:ss') : basic('acme:bad'),
    );

    const responses = await Promise.all(
      headers.map((header) => request(server).get('/me').set('Authorization', header)),
    );

    expect(responses.map((res) => res.status)).toEqual(
      headers.map((_, i) => (i % 2 === 0 ? 200 : 401)),
    );
  });

  it('when the account is disabled and the password right, then 403', async () => {
    const res = await request(app()).get('/me').set('Authorization', basic('gone:pw'));

    expect(res.status).toBe(403);
    expect(res.body.message).toBe('account disabled');
  });

  it('when the account is disabled and the password wrong, then 401 (the status is not revealed)', async () => {
    const res = await request(app()).get('/me').set('Authorization', basic('gone:nope'));

    expect(res.status).toBe(401);
  });

  it('when onFailure is given, then its error is used instead', async () => {
    const res = await request(
      app({ onFailure: (failure) => new UnauthorizedError(`no: ${failure.strategy}`) }),
    )
      .get('/me')
      .set('Authorization', basic('acme:wrong'));

    expect(res.status).toBe(401);
    expect(res.body.message).toBe('no: basic');
    expect(res.headers['www-authenticate']).toBeUndefined();
  });

  it('when a strategy is registered on one passport, then another passport does not know it (no global singleton)', async () => {
    const verifier = createCredentialVerifier({ directory });
    const withBasic = createPassport({ basic: basicStrategy(verifier) });
    const empty = createPassport({});
    const mount = (passport: typeof empty) =>
      createTestApp((a) => a.get('/me', authenticate(passport, 'basic'), whoami));

    const known = await request(mount(withBasic))
      .get('/me')
      .set('Authorization', basic('acme:pa:ss'));
    const unknown = await request(mount(empty))
      .get('/me')
      .set('Authorization', basic('acme:pa:ss'));

    expect(known.status).toBe(200);
    expect(unknown.status).toBe(500);
  });
});

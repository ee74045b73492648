import request from 'supertest';
import { describe, expect, it } from 'vitest';
import type { Notifier } from '../src/service.js';
import { PASSWORD, useNotifierHarness } from './harness.js';

/** The callback signing interface (packages/contracts/openapi/callbacks.yaml) through createApp. */
const world = useNotifierHarness();
const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;
const GET = '/v1/callbacks/signing-secret';
const ROTATE = '/v1/callbacks/signing-secret/rotate';

/** A notifier of its own for the test (stopped after it). */
const service = (): Promise<Notifier> => world.notifier();

describe('authentication', () => {
  it.each([
    ['no credentials', (r: request.Test) => r],
    ['a wrong password', (r: request.Test) => r.auth('someone', 'wrong password')],
    ['a bearer token', (r: request.Test) => r.set('authorization', 'Bearer abc.def.ghi')],
  ])('when a request has %s, then it is 401 with the Basic challenge', async (_, withAuth) => {
    const app = (await service()).app;
    for (const call of [request(app).get(GET), request(app).post(ROTATE).send({})]) {
      const res = await withAuth(call);
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Basic realm="Callbacks"');
      expect(res.body).toMatchObject({ code: 'UNAUTHORIZED' });
    }
  });

  it('when the account is disabled or calls from outside its IP allow-list, then it is 403 and no secret is shown', async () => {
    const app = (await service()).app;
    const disabled = await world.account({ status: 'disabled' });
    const elsewhere = await world.account({ ipAllowList: ['203.0.113.0/24'] });
    for (const account of [disabled, elsewhere]) {
      const res = await request(app).get(GET).auth(account.name, PASSWORD);
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: 'FORBIDDEN' });
      expect(JSON.stringify(res.body)).not.toContain('whsec_');
    }
  });

  it('when an account has no permission at all, then it still reaches its own secret (every account may get callbacks)', async () => {
    const account = await world.account({ permissions: [] });
    const res = await request((await service()).app)
      .get(GET)
      .auth(account.name, PASSWORD);
    expect(res.status).toBe(200);
  });

  it('when an account passes its request rate, then it is 429 with Retry-After', async () => {
    const app = (await service()).app;
    const account = await world.account({ rateLimit: { perSecond: 0.01, burst: 1 } });
    expect((await request(app).get(GET).auth(account.name, PASSWORD)).status).toBe(200);
    const res = await request(app).get(GET).auth(account.name, PASSWORD);
    expect(res.status).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('GET /v1/callbacks/signing-secret', () => {
  it('when an account fetches its secret, then it is made on first use, whsec_ with 32 bytes, not cached by clients, and the same on the next fetch', async () => {
    const app = (await service()).app;
    const account = await world.account();
    const first = await request(app).get(GET).auth(account.name, PASSWORD);
    expect(first.status).toBe(200);
    expect(first.headers['cache-control']).toBe('no-store');
    expect(first.body).toEqual({
      secret: expect.stringMatching(SECRET),
      created_at: expect.any(String),
      previous_secret_expires_at: null,
    });
    const again = await request(app).get(GET).auth(account.name.toUpperCase(), PASSWORD);
    expect(again.body).toEqual(first.body);
  });

  it("when two accounts fetch, then each gets its own secret and no request can name the other's", async () => {
    const app = (await service()).app;
    const [mine, theirs] = [await world.account(), await world.account()];
    const theirSecret = (await request(app).get(GET).auth(theirs.name, PASSWORD)).body.secret;
    const mySecret = (await request(app).get(GET).auth(mine.name, PASSWORD)).body.secret;
    expect(mySecret).toMatch(SECRET);
    expect(mySecret).not.toBe(theirSecret);

    // The account is the caller's, always: there is no parameter to ask for another.
    const byQuery = await request(app)
      .get(`${GET}?account_id=${theirs.id}`)
      .auth(mine.name, PASSWORD);
    expect(byQuery.status).toBe(400);
    expect(JSON.stringify(byQuery.body)).not.toContain(theirSecret);
    const byPath = await request(app)
      .get(`/v1/callbacks/${theirs.id}/signing-secret`)
      .auth(mine.name, PASSWORD);
    expect(byPath.status).toBe(404);
    const byBody = await request(app)
      .post(ROTATE)
      .auth(mine.name, PASSWORD)
      .send({ account_id: theirs.id });
    expect(byBody.status).toBe(400);
    expect((await request(app).get(GET).auth(theirs.name, PASSWORD)).body.secret).toBe(theirSecret);
  });
});

describe('POST /v1/callbacks/signing-secret/rotate', () => {
  it('when an account rotates before it ever had a secret, then it gets one and there is no previous one', async () => {
    const app = (await service()).app;
    const account = await world.account();
    const rotated = await request(app).post(ROTATE).auth(account.name, PASSWORD).send({});
    expect(rotated.status).toBe(200);
    expect(rotated.body).toEqual({
      secret: expect.stringMatching(SECRET),
      created_at: expect.any(String),
      previous_secret_expires_at: null,
    });
  });

  it('when an account rotates without a body, then it gets a new secret, the old one signs for 24 hours, and GET shows the new one', async () => {
    const app = (await service()).app;
    const account = await world.account();
    const before = (await request(app).get(GET).auth(account.name, PASSWORD)).body;
    const rotated = await request(app).post(ROTATE).auth(account.name, PASSWORD);
    expect(rotated.status).toBe(200);
    expect(rotated.headers['cache-control']).toBe('no-store');
    expect(rotated.body.secret).toMatch(SECRET);
    expect(rotated.body.secret).not.toBe(before.secret);
    const grace = Date.parse(rotated.body.previous_secret_expires_at) - Date.now();
    expect(grace).toBeGreaterThan(24 * 3_600_000 - 60_000);
    expect(grace).toBeLessThanOrEqual(24 * 3_600_000);
    expect((await request(app).get(GET).auth(account.name, PASSWORD)).body).toEqual(rotated.body);
  });

  it('when previous_secret_expires_in is given, then the old secret signs for that many seconds (0: not at all)', async () => {
    const app = (await service()).app;
    const account = await world.account();
    await request(app).get(GET).auth(account.name, PASSWORD).expect(200);
    const hour = await request(app)
      .post(ROTATE)
      .auth(account.name, PASSWORD)
      .send({ previous_secret_expires_in: 3600 });
    const grace = Date.parse(hour.body.previous_secret_expires_at) - Date.now();
    expect(grace).toBeGreaterThan(3_540_000);
    expect(grace).toBeLessThanOrEqual(3_600_000);
    const now = await request(app)
      .post(ROTATE)
      .auth(account.name, PASSWORD)
      .send({ previous_secret_expires_in: 0 });
    expect(now.status).toBe(200);
    expect(now.body.previous_secret_expires_at).toBeNull();
  });

  it("when one account rotates, then another account's secret stays as it was", async () => {
    const app = (await service()).app;
    const [mine, theirs] = [await world.account(), await world.account()];
    const theirSecret = (await request(app).get(GET).auth(theirs.name, PASSWORD)).body;
    await request(app).post(ROTATE).auth(mine.name, PASSWORD).expect(200);
    expect((await request(app).get(GET).auth(theirs.name, PASSWORD)).body).toEqual(theirSecret);
  });

  it.each([
    [{ previous_secret_expires_in: -1 }, 'previous_secret_expires_in'],
    [{ previous_secret_expires_in: 604_801 }, 'previous_secret_expires_in'],
    [{ previous_secret_expires_in: 1.5 }, 'previous_secret_expires_in'],
    [{ previous_secret_expires_in: '60' }, 'previous_secret_expires_in'],
    [{ previous_secret_expires_in: null }, 'previous_secret_expires_in'],
    [{ grace: 60 }, 'grace'],
    [[60], 'body'],
  ])(
    'when the body is %j, then it is 400 naming %s and nothing is rotated',
    async (body, field) => {
      const app = (await service()).app;
      const account = await world.account();
      const before = (await request(app).get(GET).auth(account.name, PASSWORD)).body;
      const res = await request(app).post(ROTATE).auth(account.name, PASSWORD).send(body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(JSON.stringify(res.body.details)).toContain(field);
      expect((await request(app).get(GET).auth(account.name, PASSWORD)).body).toEqual(before);
    },
  );

  it('when the body is not JSON or not well-formed, then it is 415 or 400 in the error format', async () => {
    const app = (await service()).app;
    const account = await world.account();
    const text = await request(app)
      .post(ROTATE)
      .auth(account.name, PASSWORD)
      .set('content-type', 'text/plain')
      .send('previous_secret_expires_in=0');
    expect(text.status).toBe(415);
    expect(text.body).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    const broken = await request(app)
      .post(ROTATE)
      .auth(account.name, PASSWORD)
      .set('content-type', 'application/json')
      .send('{"previous_secret_expires_in": ');
    expect(broken.status).toBe(400);
    expect(broken.body).toMatchObject({ code: 'MALFORMED_REQUEST' });
  });
});

import { Webhook } from 'standardwebhooks';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { PASSWORD, useNotifierHarness } from './harness.js';

/** POST /internal/v1/signatures (packages/contracts/openapi/internal/notifier.yaml) through createApp. */
const world = useNotifierHarness();
const SIGN = '/internal/v1/signatures';
const TOKEN = 'notifier-internal-token-for-tests';
const BODY = JSON.stringify({ event_type: 'webhook.test', message: 'Grüße' });

const service = () => world.notifier({ NOTIFIER_INTERNAL_TOKEN: TOKEN });

/** The account's secrets as its receiver fetches them. */
async function secretOf(app: Parameters<typeof request>[0], name: string) {
  return (await request(app).get('/v1/callbacks/signing-secret').auth(name, PASSWORD)).body as {
    secret: string;
  };
}

describe('POST /internal/v1/signatures', () => {
  it("when a service asks for an account's signature, then the three Standard Webhooks headers verify with the secret the account fetches, and are not cached", async () => {
    const app = (await service()).app;
    const account = await world.account();
    const res = await request(app)
      .post(SIGN)
      .set('authorization', `Bearer ${TOKEN}`)
      .send({ account_id: account.id, body: BODY });
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({
      headers: {
        'webhook-id': expect.stringMatching(/^msg_/),
        'webhook-timestamp': expect.stringMatching(/^\d+$/),
        'webhook-signature': expect.stringMatching(/^v1,/),
      },
    });
    const { secret } = await secretOf(app, account.name);
    expect(new Webhook(secret).verify(BODY, res.body.headers)).toEqual(JSON.parse(BODY));
    expect(() => new Webhook(secret).verify(`${BODY} `, res.body.headers)).toThrow();
  });

  it('when the account rotated its secret, then both secrets sign during the grace period', async () => {
    const app = (await service()).app;
    const account = await world.account();
    const old = await secretOf(app, account.name);
    const rotated = await request(app)
      .post('/v1/callbacks/signing-secret/rotate')
      .auth(account.name, PASSWORD)
      .send({});
    const res = await request(app)
      .post(SIGN)
      .set('authorization', `Bearer ${TOKEN}`)
      .send({ account_id: account.id, body: BODY });
    for (const secret of [rotated.body.secret, old.secret]) {
      expect(new Webhook(secret).verify(BODY, res.body.headers)).toEqual(JSON.parse(BODY));
    }
  });

  it("when two accounts are signed for, then neither's signature verifies with the other's secret", async () => {
    const app = (await service()).app;
    const [mine, theirs] = [await world.account(), await world.account()];
    const res = await request(app)
      .post(SIGN)
      .set('authorization', `Bearer ${TOKEN}`)
      .send({ account_id: mine.id, body: BODY });
    const { secret } = await secretOf(app, theirs.name);
    expect(() => new Webhook(secret).verify(BODY, res.body.headers)).toThrow();
  });

  it.each([
    ['no token', (r: request.Test) => r],
    ['a wrong token', (r: request.Test) => r.set('authorization', 'Bearer wrong')],
  ])('when a request has %s, then it is 401 and nothing is signed', async (_, withAuth) => {
    const app = (await service()).app;
    const account = await world.account();
    const res = await withAuth(request(app).post(SIGN)).send({ account_id: account.id, body: '' });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'UNAUTHORIZED' });
    expect(res.body.headers).toBeUndefined();
  });

  it('when NOTIFIER_INTERNAL_TOKEN is not set, then every call is 401', async () => {
    const app = (await world.notifier()).app;
    const account = await world.account();
    const res = await request(app)
      .post(SIGN)
      .set('authorization', 'Bearer ')
      .send({ account_id: account.id, body: '' });
    expect(res.status).toBe(401);
  });

  it.each([
    ['has no account_id', { body: BODY }, 'account_id'],
    ['has no body', { account_id: 'a1' }, 'body'],
    ['has an empty account_id', { account_id: '', body: BODY }, 'account_id'],
    ['has a body over 16384 characters', { account_id: 'a1', body: 'x'.repeat(16_385) }, 'body'],
    ['names a secret of its own', { account_id: 'a1', body: BODY, secret: 'mine' }, 'secret'],
  ])('when the request %s, then it is 400 naming it', async (_, body, field) => {
    const app = (await service()).app;
    const res = await request(app).post(SIGN).set('authorization', `Bearer ${TOKEN}`).send(body);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body.details)).toContain(field);
  });
});

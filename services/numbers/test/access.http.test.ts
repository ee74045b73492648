import type { NumberScope } from '@msg/contracts';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  INTERNAL_TOKEN,
  PASSWORD,
  PROBLEMS,
  startTestNumbers,
  type TestNumbers,
} from './support.js';

let t: TestNumbers;
beforeAll(async () => {
  t = await startTestNumbers();
}, 60_000);
afterAll(async () => t?.stop());

const NUMBER = '/v1/numbers/46701234567';

function expectProblem(res: request.Response, status: number, slug: string, instance = NUMBER) {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(res.headers.vary).toBe('Authorization');
  expect(res.headers.etag).toBeUndefined();
  expect(res.body).toEqual({
    type: `${PROBLEMS}/${slug}`,
    title: expect.any(String),
    status,
    detail: expect.any(String),
    instance,
  });
}

describe('401 unauthorized', () => {
  it('when no credentials are sent, then 401 with a Basic challenge', async () => {
    const res = await request(t.app).get(NUMBER);
    expectProblem(res, 401, 'unauthorized');
    expect(res.headers['www-authenticate']).toMatch(/^Basic realm="/);
  });

  it('when a Bearer token is sent, then 401 with a Basic challenge', async () => {
    const res = await request(t.app).get(NUMBER).set('Authorization', 'Bearer abc.def.ghi');
    expectProblem(res, 401, 'unauthorized');
    expect(res.headers['www-authenticate']).toMatch(/^Basic realm="/);
  });

  it('when the password is wrong (even by case), then 401', async () => {
    const acct = await t.publishAccount(t.account());
    const res = await request(t.app).get(NUMBER).auth(acct.name, PASSWORD.toUpperCase());
    expectProblem(res, 401, 'unauthorized');
  });

  it('when the user is unknown, then 401', async () => {
    const res = await request(t.app).get(NUMBER).auth('nobody-here', PASSWORD);
    expectProblem(res, 401, 'unauthorized');
  });

  it('when the user name differs only in case, then it is the same account (200)', async () => {
    const acct = await t.publishAccount(t.account());
    const res = await request(t.app).get(NUMBER).auth(acct.name.toUpperCase(), PASSWORD);
    expect(res.status).toBe(200);
  });
});

describe('403 forbidden', () => {
  it('when the calling address is outside the allow-list, then 403', async () => {
    const acct = await t.publishAccount(t.account({ ipAllowList: ['203.0.113.0/24'] }));
    expectProblem(await t.get(acct, NUMBER), 403, 'forbidden');
  });

  it('when the calling address is inside the allow-list, then 200', async () => {
    const acct = await t.publishAccount(t.account({ ipAllowList: ['127.0.0.1', '::1'] }));
    expect((await t.get(acct, NUMBER)).status).toBe(200);
  });

  it('when the account lacks the numbers permission, then 403', async () => {
    const acct = await t.publishAccount(t.account({ permissions: ['sms'] }));
    expectProblem(await t.get(acct, NUMBER), 403, 'forbidden');
  });

  it('when the account is disabled, then 403', async () => {
    const acct = await t.publishAccount(t.account({ status: 'disabled' }));
    expectProblem(await t.get(acct, NUMBER), 403, 'forbidden');
  });

  const ALL: NumberScope[] = ['numbers:read', 'numbers:porting-history', 'numbers:live-status'];
  const VIEWS = [
    ['base', NUMBER],
    ['porting-history', `${NUMBER}/porting-history`],
    ['live-status', `${NUMBER}/live-status`],
  ] as const;
  const allowed = (scopes: NumberScope[], view: string) =>
    scopes.includes('numbers:read') &&
    (view === 'base' || scopes.includes(`numbers:${view}` as NumberScope));
  const combinations: NumberScope[][] = [
    [],
    ['numbers:read'],
    ['numbers:porting-history'],
    ['numbers:live-status'],
    ['numbers:read', 'numbers:porting-history'],
    ['numbers:read', 'numbers:live-status'],
    ['numbers:porting-history', 'numbers:live-status'],
    ALL,
  ];
  it.each(combinations.map((scopes) => [scopes.join(' + ') || '(none)', scopes] as const))(
    'when the scopes are %s, then each view is answered only when its scopes are all granted',
    async (_label, scopes) => {
      const acct = await t.publishAccount(t.account({ numberScopes: scopes }));
      for (const [view, path] of VIEWS) {
        const res = await t.get(acct, path);
        if (allowed(scopes, view)) expect(res.status, `${view}`).toBe(200);
        else expectProblem(res, 403, 'forbidden', path);
      }
    },
  );
});

describe('404, 405', () => {
  it('when the path is no resource, then 404 not-found', async () => {
    const acct = await t.publishAccount(t.account());
    expectProblem(await t.get(acct, `${NUMBER}/history`), 404, 'not-found', `${NUMBER}/history`);
  });

  it('when the method is not GET, then 405 method-not-allowed with Allow: GET', async () => {
    const acct = await t.publishAccount(t.account());
    const res = await request(t.app).post(NUMBER).auth(acct.name, PASSWORD).send({});
    expectProblem(res, 405, 'method-not-allowed');
    expect(res.headers.allow).toBe('GET');
  });
});

describe('429 rate-limited', () => {
  it('when the burst is used up, then 429 rate-limited with Retry-After in seconds', async () => {
    const acct = await t.publishAccount(t.account({ rateLimit: { perSecond: 0.01, burst: 2 } }));
    expect((await t.get(acct, NUMBER)).status).toBe(200);
    expect((await t.get(acct, NUMBER)).status).toBe(200);
    const res = await t.get(acct, NUMBER);
    expectProblem(res, 429, 'rate-limited');
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('when one account is limited, then another is not', async () => {
    const limited = await t.publishAccount(t.account({ rateLimit: { perSecond: 0.01, burst: 1 } }));
    const other = await t.publishAccount(t.account());
    await t.get(limited, NUMBER);
    expect((await t.get(limited, NUMBER)).status).toBe(429);
    expect((await t.get(other, NUMBER)).status).toBe(200);
  });
});

describe('GET /internal/v1/numbers/{digits}', () => {
  const internal = (path: string, token = INTERNAL_TOKEN) =>
    request(t.app).get(path).set('Authorization', `Bearer ${token}`);

  it('when the token is right, then base, both aspects and the network details, without an account', async () => {
    const res = await internal(
      '/internal/v1/numbers/46701234567?aspects=live_status,porting_history',
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body.base.network.service_provider.id).toBe('002');
    expect(res.body.porting_history.ports).toHaveLength(3);
    expect(res.body.live_status.state).toBe('reachable');
    expect(res.body.hlr).toMatchObject({ mcc: '240', imsi: expect.stringMatching(/^240/) });
  });

  it('when no aspects are asked, then only the base', async () => {
    const res = await internal('/internal/v1/numbers/46701234567');
    expect(Object.keys(res.body)).toEqual(['base']);
  });

  it('when the token is wrong or Basic credentials are sent, then 401', async () => {
    const acct = await t.publishAccount(t.account());
    expectProblem(
      await internal('/internal/v1/numbers/46701234567', 'wrong'),
      401,
      'unauthorized',
      '/internal/v1/numbers/46701234567',
    );
    const basic = await request(t.app)
      .get('/internal/v1/numbers/46701234567')
      .auth(acct.name, PASSWORD);
    expect(basic.status).toBe(401);
  });
});

import got, { type Got } from 'got';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Platform, startEmbedded } from './platform.js';

/**
 * Number intelligence and the legacy lookup end to end on the embedded defaults: through the
 * gateway into the numbers service (and the lookup-legacy service, which asks the numbers
 * service's internal API), answered from the sample registry snapshot the suite imports at start
 * and from the HLR simulator the suite runs.
 */
let platform: Platform;
let gateway: Got;
const account = { name: `numberse2e${Date.now().toString(36)}`, password: 'e2e-password-123' };

beforeAll(async () => {
  platform = await startEmbedded();
  const created = await got.post(`${platform.adminUrl}/internal/v1/accounts`, {
    headers: { authorization: `Bearer ${platform.adminToken}` },
    json: {
      name: account.name,
      password: account.password,
      permissions: ['numbers', 'lookup'],
      numberScopes: ['numbers:read', 'numbers:live-status'],
    },
  });
  expect(created.statusCode).toBe(201);
  gateway = got.extend({
    prefixUrl: platform.gatewayUrl,
    username: account.name,
    password: account.password,
    throwHttpErrors: false,
    retry: { limit: 0 },
  });
  // The account reaches the numbers service over the bus.
  const deadline = Date.now() + 20_000;
  while ((await gateway.get('v1/numbers/46701234567')).statusCode !== 200) {
    if (Date.now() > deadline) throw new Error('the account did not reach the numbers service');
    await new Promise((r) => setTimeout(r, 100));
  }
}, 180_000);

afterAll(async () => {
  await platform?.stop();
}, 60_000);

describe('number intelligence through the gateway', () => {
  it('when a ported Swedish number is asked, then the registry answer with validators, and 304 on revalidation', async () => {
    const res = await gateway.get('v1/numbers/+46701234567');
    expect(res.statusCode).toBe(200);
    const body = JSON.parse(res.body);
    expect(body.network.service_provider).toMatchObject({ id: '002', id_scheme: 'snpac_spid' });
    expect(body.source.basis).toBe('portability_registry');
    expect(res.headers['cache-control']).toMatch(/^private, max-age=\d+$/);
    expect(res.headers['content-location']).toBe('/v1/numbers/46701234567');
    const again = await gateway.get('v1/numbers/46701234567', {
      headers: { 'if-none-match': res.headers.etag },
    });
    expect(again.statusCode).toBe(304);
  });

  it('when the live status is asked, then the HLR simulator answers', async () => {
    const res = await gateway.get('v1/numbers/46701234567/live-status');
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(res.body).live_status).toMatchObject({
      state: 'reachable',
      source: { basis: 'live_network' },
    });
  });

  it('when a scope is not granted, then 403 problem+json', async () => {
    const res = await gateway.get('v1/numbers/46701234567/porting-history');
    expect(res.statusCode).toBe(403);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(res.body).type).toBe('https://api.messaging.example/problems/forbidden');
  });
});

describe('legacy lookup through the gateway, from the numbers service', () => {
  it('when each level is asked, then its fields come from the registry and the live network', async () => {
    const sweden = await gateway.get('v1/lookup/sweden/46701234567');
    expect(sweden.statusCode).toBe(200);
    const answer = JSON.parse(sweden.body);
    expect(answer).toMatchObject({ CC: '46', Country: 'SE', R: 0 });
    expect(answer.Operator).not.toBe('');
    expect(answer.SPID).toBe('002');
    expect(answer).not.toHaveProperty('HLR');

    const basic = JSON.parse((await gateway.get('v1/lookup/basic/46701234567')).body);
    expect(basic).toMatchObject({ CC: '46', HLR: 'OK', MCC: '240', R: 0 });
    expect(basic.IMSI).toMatch(/^240/);
    expect(basic).not.toHaveProperty('Operator');

    const advanced = JSON.parse((await gateway.get('v1/lookup/advanced/46701234567')).body);
    expect(advanced).toMatchObject({ HLR: 'OK', R: 0, Operator: answer.Operator });
  });

  it('when the msisdn is not digits with a country code, then 400 in the lookup error format', async () => {
    const res = await gateway.get('v1/lookup/basic/0701234567');
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body).code).toBeTruthy();
  });
});

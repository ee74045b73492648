import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestAdmin } from './support.js';

let admin: Awaited<ReturnType<typeof startTestAdmin>>;
const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };
const base = '/internal/v1/accounts';
let counter = 0;
const uniqueName = () => {
  counter += 1;
  return `acct${Date.now().toString(36)}${counter}`;
};

beforeAll(async () => {
  admin = await startTestAdmin();
}, 60_000);
afterAll(async () => {
  await admin?.stop();
});

const api = () => request(admin.app);
async function create(body: Record<string, unknown> = {}) {
  const res = await api()
    .post(base)
    .set(auth)
    .send({ name: uniqueName(), ...body });
  expect(res.status).toBe(201);
  return res.body;
}

describe('authentication of the internal API', () => {
  it('when no token is sent, then 401 with a Bearer challenge', async () => {
    const res = await api().get(base);
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(res.body).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('when a wrong token is sent, then 401 and nothing is created', async () => {
    const name = uniqueName();
    const res = await api().post(base).set({ authorization: 'Bearer wrong' }).send({ name });
    expect(res.status).toBe(401);
    expect((await api().get(`${base}/${name}`).set(auth)).status).toBe(404);
  });
});

describe('createAccount', () => {
  it('when created with a password and an API key, then the key is shown once and only hashes are published', async () => {
    const account = await create({
      password: 'correct horse battery',
      createApiKey: true,
      permissions: ['sms', 'batch_sms'],
      numberScopes: ['numbers:read'],
      ipAllowList: ['10.0.0.0/8', '::1'],
      senderIds: ['+46701234567', 'ACME', '72000'],
      callbacks: { replyPathUrl: 'https://example.com/r', replyPathMethod: 'GET' },
      rateLimit: { perSecond: 5, burst: 10 },
    });
    expect(account).toMatchObject({
      status: 'active',
      hasPassword: true,
      permissions: ['sms', 'batch_sms'],
      version: 1,
      callbacks: { replyPathUrl: 'https://example.com/r', replyPathMethod: 'GET' },
    });
    expect(typeof account.apiKey).toBe('string');
    expect(JSON.stringify(account)).not.toMatch(/scrypt\$/);

    const shown = await api().get(`${base}/${account.id}`).set(auth);
    expect(shown.status).toBe(200);
    expect(shown.body.apiKey).toBeUndefined();
    expect(shown.body.apiKeys).toHaveLength(1);

    const state = await admin.publishedState(account.id, 1);
    expect(state.name).toBe(account.name);
    expect(await admin.verifySecret('correct horse battery', state.passwordHash ?? '')).toBe(true);
    expect(await admin.verifySecret(account.apiKey, state.apiKeys[0]?.hash ?? '')).toBe(true);
    expect(state.ipAllowList).toEqual(['10.0.0.0/8', '::1']);
  });

  it('when the name is taken in any letter case, then 409', async () => {
    const account = await create();
    const res = await api().post(base).set(auth).send({ name: account.name.toUpperCase() });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('CONFLICT');
  });

  it.each([
    [{ name: 'x' }, 'name'],
    [{ name: 'has space' }, 'name'],
    [{ password: 'short' }, 'password'],
    [{ permissions: ['fly'] }, 'permissions'],
    [{ numberScopes: ['numbers:write'] }, 'numberScopes'],
    [{ rateLimit: { perSecond: 0, burst: 1 } }, 'perSecond'],
    [{ rateLimit: { perSecond: 10, burst: 5 } }, 'burst'],
    [{ ipAllowList: ['10.0.0.0/33'] }, 'ipAllowList'],
    [{ senderIds: ['TOO-LONG-SENDER'] }, 'senderIds'],
    [{ senderIds: [' ACME'] }, 'senderIds'],
    [{ callbacks: { replyPathUrl: 'ftp://x' } }, 'replyPathUrl'],
    [
      { callbacks: { deliveryReportUrl: 'http://127.0.0.1:9/cb\r\nX-Evil: 1' } },
      'deliveryReportUrl',
    ],
    [{ callbacks: { voiceReportUrl: 'https://user:pw@example.com/v' } }, 'voiceReportUrl'],
    // CALLBACK_ALLOW_PRIVATE_TARGETS unset: private hosts in any spelling, and non-URI characters.
    [{ callbacks: { deliveryReportUrl: 'http://2852039166/latest' } }, 'deliveryReportUrl'],
    [{ callbacks: { replyPathUrl: 'http://[::ffff:a9fe:a9fe]/r' } }, 'replyPathUrl'],
    [{ callbacks: { voiceReportUrl: 'http://localhost:8080/v' } }, 'voiceReportUrl'],
    [{ callbacks: { replyPathUrl: 'https://example.com/\u202egpj.exe' } }, 'replyPathUrl'],
    [{ unknown: true }, 'unknown'],
    [{ smsThroughputPerSecond: '100' }, 'smsThroughputPerSecond'],
  ])('when the body has %j, then 400 naming %s', async (body, field) => {
    const res = await api()
      .post(base)
      .set(auth)
      .send({ name: uniqueName(), ...body });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(JSON.stringify(res.body)).toContain(field);
  });

  it('when the JSON is malformed, then 400; when the content type is wrong, then 415', async () => {
    const malformed = await api()
      .post(base)
      .set(auth)
      .set('content-type', 'application/json')
      .send('{"name":');
    expect(malformed.status).toBe(400);
    const text = await api().post(base).set(auth).set('content-type', 'text/plain').send('name=x');
    expect(text.status).toBe(415);
  });
});

describe('getAccount and listAccounts', () => {
  it('when looked up by name in another case, then found; when unknown, then 404', async () => {
    const account = await create();
    expect((await api().get(`${base}/${account.name.toUpperCase()}`).set(auth)).body.id).toBe(
      account.id,
    );
    const missing = await api().get(`${base}/nobody-here`).set(auth);
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('NOT_FOUND');
  });

  it('when listed by status with a limit, then only those come back and the total counts all', async () => {
    const disabled = await create();
    await api().post(`${base}/${disabled.id}/disable`).set(auth).expect(200);
    const res = await api().get(base).query({ status: 'disabled', limit: 1 }).set(auth);
    expect(res.status).toBe(200);
    expect(res.body.accounts).toHaveLength(1);
    expect(res.body.accounts[0].status).toBe('disabled');
    expect(res.body.total).toBeGreaterThanOrEqual(1);
    expect((await api().get(base).query({ limit: 0 }).set(auth)).status).toBe(400);
    expect((await api().get(base).query({ sort: 'name' }).set(auth)).status).toBe(400);
  });
});

describe('changes are versioned and published', () => {
  it('when settings are updated, then only those change and a newer state is published', async () => {
    const account = await create({ permissions: ['sms'], senderIds: ['ACME'] });
    const res = await api()
      .patch(`${base}/${account.id}`)
      .set(auth)
      .send({ permissions: ['sms', 'numbers'], numberScopes: ['numbers:live-status'] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      version: 2,
      permissions: ['sms', 'numbers'],
      senderIds: ['ACME'],
    });
    const state = await admin.publishedState(account.id, 2);
    expect(state.numberScopes).toEqual(['numbers:live-status']);
    expect((await api().patch(`${base}/${account.id}`).set(auth).send({})).status).toBe(400);
  });

  it('when limits are set and lifted, then the published state follows (null = no limit)', async () => {
    const account = await create({ batchMaxRecipients: 5000, numbersMonthlyQuota: 100 });
    expect(account).toMatchObject({ batchMaxRecipients: 5000, numbersMonthlyQuota: 100 });
    const lifted = await api()
      .patch(`${base}/${account.id}`)
      .set(auth)
      .send({ numbersMonthlyQuota: null });
    expect(lifted.body).toMatchObject({ batchMaxRecipients: 5000, numbersMonthlyQuota: null });
    const state = await admin.publishedState(account.id, 2);
    expect(state).toMatchObject({ batchMaxRecipients: 5000, numbersMonthlyQuota: null });
    const tooMany = await api()
      .patch(`${base}/${account.id}`)
      .set(auth)
      .send({ batchMaxRecipients: 1_000_001 });
    expect(tooMany.status).toBe(400);
  });

  it('when disabled and enabled, then each state is published in order', async () => {
    const account = await create();
    expect((await api().post(`${base}/${account.id}/disable`).set(auth)).body.status).toBe(
      'disabled',
    );
    expect((await admin.publishedState(account.id, 2)).status).toBe('disabled');
    await api().post(`${base}/${account.id}/enable`).set(auth).expect(200);
    expect((await admin.publishedState(account.id, 3)).status).toBe('active');
  });

  it('when the password is set, then the published hash verifies the new password only', async () => {
    const account = await create({ password: 'first-password' });
    await api()
      .put(`${base}/${account.id}/password`)
      .set(auth)
      .send({ password: 'second-password' })
      .expect(204);
    const state = await admin.publishedState(account.id, 2);
    expect(await admin.verifySecret('second-password', state.passwordHash ?? '')).toBe(true);
    expect(await admin.verifySecret('first-password', state.passwordHash ?? '')).toBe(false);
  });

  it('when a password holds control characters, then 400 naming password on create and on set', async () => {
    for (const password of [
      '\r\nX-Injected: 1',
      'password\u0000',
      'pass\u007fword',
      'pass\u0085word',
    ]) {
      const created = await api()
        .post(base)
        .set(auth)
        .send({ name: `Ctl${Math.random().toString(36).slice(2, 8)}`, password });
      expect(created.status).toBe(400);
      expect(JSON.stringify(created.body)).toContain('password');
    }
    const account = await create({ password: 'first-password' });
    const set = await api()
      .put(`${base}/${account.id}/password`)
      .set(auth)
      .send({ password: 'second\tpassword' });
    expect(set.status).toBe(400);
    expect(JSON.stringify(set.body)).toContain('password');
  });

  it('when an API key is added and revoked, then the published keys follow', async () => {
    const account = await create();
    const added = await api().post(`${base}/${account.id}/api-keys`).set(auth);
    expect(added.status).toBe(201);
    expect(added.body.apiKey.startsWith(added.body.prefix)).toBe(true);
    const withKey = await admin.publishedState(account.id, 2);
    expect(await admin.verifySecret(added.body.apiKey, withKey.apiKeys[0]?.hash ?? '')).toBe(true);

    await api().delete(`${base}/${account.id}/api-keys/${added.body.id}`).set(auth).expect(204);
    expect((await admin.publishedState(account.id, 3)).apiKeys).toEqual([]);
    const again = await api().delete(`${base}/${account.id}/api-keys/${added.body.id}`).set(auth);
    expect(again.status).toBe(404);
  });

  it('when the operator supplies a migrated key, then that key is the one stored', async () => {
    const account = await create();
    const key = 'migrated-key-0123456789abcdef';
    await api().post(`${base}/${account.id}/api-keys`).set(auth).send({ apiKey: key }).expect(201);
    const state = await admin.publishedState(account.id, 2);
    expect(await admin.verifySecret(key, state.apiKeys[0]?.hash ?? '')).toBe(true);
    const short = await api()
      .post(`${base}/${account.id}/api-keys`)
      .set(auth)
      .send({ apiKey: 'x' });
    expect(short.status).toBe(400);
  });

  it('when everything is republished, then each account is queued again', async () => {
    const account = await create();
    const before = admin.published.filter((s) => s.id === account.id).length;
    const res = await api().post(`${base}/republish`).set(auth);
    expect(res.status).toBe(202);
    expect(res.body.queued).toBeGreaterThanOrEqual(1);
    const deadline = Date.now() + 10_000;
    while (admin.published.filter((s) => s.id === account.id).length === before) {
      if (Date.now() > deadline) throw new Error('not republished');
      await new Promise((r) => setTimeout(r, 20));
    }
  });
});

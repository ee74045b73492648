import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestAdmin } from './support.js';

let admin: Awaited<ReturnType<typeof startTestAdmin>>;
const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };
const base = '/internal/v1/accounts';

beforeAll(async () => {
  admin = await startTestAdmin();
}, 60_000);
afterAll(async () => {
  await admin?.stop();
});

async function createAccount(): Promise<{ id: string; version: number }> {
  const res = await request(admin.app)
    .post(base)
    .set(auth)
    .send({ name: `idem${Date.now().toString(36)}` });
  expect(res.status).toBe(201);
  return res.body;
}

describe('disableAccount with Idempotency-Key', () => {
  it('when the disable is sent twice with one key, then the first answer is replayed and the account changes once', async () => {
    const account = await createAccount();
    const disable = () =>
      request(admin.app)
        .post(`${base}/${account.id}/disable`)
        .set({ ...auth, 'Idempotency-Key': 'disable-1' });

    const first = await disable();
    const second = await disable();
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body).toEqual(first.body);
    const now = await request(admin.app).get(`${base}/${account.id}`).set(auth);
    expect(now.body.version).toBe(first.body.version);
  });

  it('when the key was used on another path, then it is a different key there', async () => {
    const account = await createAccount();
    const headers = { ...auth, 'Idempotency-Key': 'shared-key' };
    const disabled = await request(admin.app).post(`${base}/${account.id}/disable`).set(headers);
    const enabled = await request(admin.app).post(`${base}/${account.id}/enable`).set(headers);
    expect([disabled.status, enabled.status]).toEqual([200, 200]);
    expect(enabled.headers['idempotent-replayed']).toBeUndefined();
    expect(enabled.body.status).toBe('active');
  });
});

describe('createApiKey is exempt', () => {
  it('when the same key is sent twice, then each answer is a new API key and none is stored', async () => {
    const account = await createAccount();
    const headers = { ...auth, 'Idempotency-Key': 'api-key-1' };
    const first = await request(admin.app).post(`${base}/${account.id}/api-keys`).set(headers);
    const second = await request(admin.app).post(`${base}/${account.id}/api-keys`).set(headers);
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(second.body.apiKey).not.toBe(first.body.apiKey);
  });
});

import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchBody, startTestBatch, type TestBatchService } from './support.js';

let svc: TestBatchService;

beforeAll(async () => {
  svc = await startTestBatch();
}, 60_000);

afterAll(async () => {
  await svc?.stop();
});

async function batchesOf(accountId: string): Promise<number> {
  const { rows } = await svc.pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM batch.batch WHERE account_id = $1',
    [accountId],
  );
  return rows[0]?.n ?? 0;
}

const key = (k: string) => ({ 'Idempotency-Key': k });
const scheduled = () => ({
  schedule_at: new Date(Date.now() + 24 * 3600_000).toISOString(),
});

describe('createBatch with Idempotency-Key', () => {
  it('when the same upload is sent twice with one key, then the first 202 is replayed and one batch exists', async () => {
    const { account, token } = await svc.accountWithToken();
    const k = randomUUID();
    const first = await svc.createBatch(token, batchBody(3), key(k));
    const second = await svc.createBatch(token, batchBody(3), key(k));

    expect(first.status).toBe(202);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(second.status).toBe(202);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body).toEqual(first.body);
    expect(second.headers.location).toBe(`/v1/batches/${first.body.id}`);
    expect(await batchesOf(account.id)).toBe(1);
  });

  it('when the key comes again with a different upload, then 422 naming the header and no second batch', async () => {
    const { account, token } = await svc.accountWithToken();
    const k = randomUUID();
    expect((await svc.createBatch(token, batchBody(3), key(k))).status).toBe(202);

    const res = await svc.createBatch(token, batchBody(4), key(k));
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      code: 'IDEMPOTENCY_KEY_REUSED',
      details: [{ loc: ['header', 'Idempotency-Key'], type: 'reused' }],
    });
    expect(await batchesOf(account.id)).toBe(1);
  });

  it('when the key is longer than 255 characters, then 400 naming the header and no batch', async () => {
    const { account, token } = await svc.accountWithToken();
    const res = await svc.createBatch(token, batchBody(1), key('k'.repeat(256)));
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body.details)).toMatch(/idempotency-key/i);
    expect(await batchesOf(account.id)).toBe(0);
  });

  it('when no key is sent, then a second upload is a new create (here refused by the one-per-second rate)', async () => {
    const { account, token } = await svc.accountWithToken();
    expect((await svc.createBatch(token, batchBody(1))).status).toBe(202);
    const again = await svc.createBatch(token, batchBody(1));
    expect(again.status).toBe(429);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(await batchesOf(account.id)).toBe(1);
  });

  it('when two accounts use the same key, then each gets its own batch', async () => {
    const a = await svc.accountWithToken();
    const b = await svc.accountWithToken();
    const k = randomUUID();
    const mine = await svc.createBatch(a.token, batchBody(2), key(k));
    const theirs = await svc.createBatch(b.token, batchBody(2), key(k));
    expect([mine.status, theirs.status]).toEqual([202, 202]);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.body.id).not.toBe(mine.body.id);
  });

  it('when the upload was refused as too fast (429), then the key is not kept and a later retry creates the batch', async () => {
    const { account, token } = await svc.accountWithToken();
    expect((await svc.createBatch(token, batchBody(1))).status).toBe(202);
    const k = randomUUID();
    const limited = await svc.createBatch(token, batchBody(2), key(k));
    expect(limited.status).toBe(429);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const retried = await svc.createBatch(token, batchBody(2), key(k));
    expect(retried.status).toBe(202);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect(await batchesOf(account.id)).toBe(2);
  });
});

describe('cancelBatch with Idempotency-Key', () => {
  it('when the cancel is sent twice with one key, then the first 200 is replayed, not the 409 of a second cancel', async () => {
    const { token } = await svc.accountWithToken();
    const created = await svc.createBatch(token, batchBody(1, scheduled()));
    expect(created.status).toBe(202);
    const cancel = () =>
      request(svc.app)
        .post(`/v1/batches/${created.body.id}/cancel`)
        .set({ Authorization: `Bearer ${token}`, 'Idempotency-Key': 'cancel-once' });

    const first = await cancel();
    const second = await cancel();
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body).toEqual(first.body);

    const withoutKey = await request(svc.app)
      .post(`/v1/batches/${created.body.id}/cancel`)
      .set({ Authorization: `Bearer ${token}` });
    expect(withoutKey.status).toBe(409);
  });
});

describe('createAccessToken is exempt', () => {
  it('when a token request carries Idempotency-Key, then it is answered afresh and nothing is stored', async () => {
    const account = await svc.publishAccount(svc.account());
    const res = await request(svc.app)
      .post('/v1/oauth/token')
      .set('Idempotency-Key', 'token-key')
      .send({ client_id: account.name, client_secret: 'test-api-key-0123456789' });
    expect(res.status).toBe(200);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    const { rows } = await svc.pool.query(
      "SELECT 1 FROM batch.idempotency_key WHERE path = '/v1/oauth/token'",
    );
    expect(rows).toEqual([]);
  });
});

import { randomUUID } from 'node:crypto';
import type { AccountState } from '@msg/contracts';
import { createPostgresIdempotencyStore } from '@msg/http';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, startTestSms, type TestSms } from './support.js';

let sms: TestSms;
let acct: AccountState;
let other: AccountState;

beforeAll(async () => {
  sms = await startTestSms();
  acct = await sms.publishAccount(sms.account());
  other = await sms.publishAccount(sms.account());
}, 60_000);

afterAll(async () => {
  await sms?.stop();
});

const valid = { to: '+46701234567', message: 'Hej igen', from: 'Acme' };

function send(account: AccountState, body: object, key?: string) {
  const req = request(sms.app).post('/v1/sms/send').auth(account.name, PASSWORD);
  return (key === undefined ? req : req.set('Idempotency-Key', key)).send(body);
}

async function storedMessages(account: AccountState): Promise<number> {
  const { rows } = await sms.pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM sms.message WHERE account_id = $1',
    [account.id],
  );
  return rows[0]?.n ?? 0;
}

describe('sendSms with Idempotency-Key', () => {
  it('when the same request is sent twice with one key, then the first answer is replayed and one message is stored', async () => {
    const key = randomUUID();
    const before = await storedMessages(acct);
    const first = await send(acct, valid, key);
    const second = await send(acct, valid, key);

    expect(first.status).toBe(202);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(second.status).toBe(202);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body).toEqual(first.body);
    expect(second.headers.location).toBe(first.headers.location);
    expect(second.headers['content-type']).toBe(first.headers['content-type']);
    expect(await storedMessages(acct)).toBe(before + 1);
  });

  it('when the key comes again with a different body, then 422 naming the header and nothing is sent', async () => {
    const key = randomUUID();
    expect((await send(acct, valid, key)).status).toBe(202);
    const before = await storedMessages(acct);

    const res = await send(acct, { ...valid, message: 'Something else' }, key);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      code: 'IDEMPOTENCY_KEY_REUSED',
      details: [{ loc: ['header', 'Idempotency-Key'], type: 'reused' }],
    });
    expect(res.body.message).toContain('Idempotency-Key');
    expect(await storedMessages(acct)).toBe(before);
  });

  it('when a request with the key is still in flight, then 409 with Retry-After and nothing is sent', async () => {
    const key = randomUUID();
    // The first request holds the key (as the middleware does while the operation runs).
    const store = createPostgresIdempotencyStore({ pool: sms.pool, schema: 'sms' });
    const held = await store.claim(
      { scope: acct.id, method: 'POST', path: '/v1/sms/send', key },
      null,
    );
    expect(held.state).toBe('claimed');
    const before = await storedMessages(acct);

    const res = await send(acct, valid, key);
    expect(res.status).toBe(409);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.body).toMatchObject({
      code: 'IDEMPOTENCY_KEY_IN_USE',
      details: [{ loc: ['header', 'Idempotency-Key'] }],
    });
    expect(await storedMessages(acct)).toBe(before);
  });

  it.each([
    ['empty', ''],
    ['longer than 255 characters', 'k'.repeat(256)],
    ['not printable ASCII', 'nyckel-å'],
  ])('when the key is %s, then 400 naming the header', async (_case, key) => {
    const before = await storedMessages(acct);
    const res = await send(acct, valid, key);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(JSON.stringify(res.body.details)).toMatch(/idempotency-key/i);
    expect(await storedMessages(acct)).toBe(before);
  });

  it('when no key is sent, then every request is a new message', async () => {
    const before = await storedMessages(acct);
    const first = await send(acct, valid);
    const second = await send(acct, valid);
    expect([first.status, second.status]).toEqual([202, 202]);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(second.body.messageId).not.toBe(first.body.messageId);
    expect(await storedMessages(acct)).toBe(before + 2);
  });

  it('when two accounts use the same key, then each gets its own message', async () => {
    const key = randomUUID();
    const mine = await send(acct, valid, key);
    const theirs = await send(other, valid, key);
    expect([mine.status, theirs.status]).toEqual([202, 202]);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.body.messageId).not.toBe(mine.body.messageId);
  });

  it('when the first request was refused by the document (400), then the key is not kept and a corrected retry is sent', async () => {
    const key = randomUUID();
    const refused = await send(acct, { ...valid, to: 12 }, key);
    expect(refused.status).toBe(400);
    const retried = await send(acct, valid, key);
    expect(retried.status).toBe(202);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
  });

  it('when the operation refused the request (400 by its own rules), then that answer is replayed for the same body', async () => {
    const key = randomUUID();
    const body = { ...valid, to: '+4670' };
    const first = await send(acct, body, key);
    expect(first.status).toBe(400);
    const second = await send(acct, body, key);
    expect(second.status).toBe(400);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body).toEqual(first.body);
  });
});

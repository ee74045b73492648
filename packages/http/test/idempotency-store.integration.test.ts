import { randomUUID } from 'node:crypto';
import { createPool, migrate } from '@msg/db';
import { createLogger } from '@msg/logger';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPostgresIdempotencyStore,
  IDEMPOTENCY_MIGRATIONS_DIR,
  type IdempotencyKeyId,
} from '../src/idempotency/idempotency-store.js';

const TEST_DATABASE_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
// A schema of its own: the test database is shared with other test runs.
const schema = `idem_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
let pool: pg.Pool;

beforeAll(async () => {
  pool = createPool({ url: TEST_DATABASE_URL, max: 4, applicationName: 'http-idempotency-test' });
  const logger = createLogger({ service: 'http-test', level: 'error' });
  await migrate({ pool, schema, migrationsDirs: [IDEMPOTENCY_MIGRATIONS_DIR], logger });
});

afterAll(async () => {
  await pool?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool?.end();
});

const keyId = (overrides: Partial<IdempotencyKeyId> = {}): IdempotencyKeyId => ({
  scope: randomUUID(),
  method: 'POST',
  path: '/v1/sms/send',
  key: randomUUID(),
  ...overrides,
});
const request = { fingerprint: 'a'.repeat(64), bodyBytes: 12 };
const answer = {
  status: 202,
  headers: { 'content-type': 'application/json; charset=utf-8', location: '/v1/sms/1' },
  body: Buffer.from('{"messageId":"1"}'),
};

async function age(id: IdempotencyKeyId, column: 'created_at' | 'locked_until', ms: number) {
  await pool.query(
    `UPDATE "${schema}".idempotency_key SET ${column} = now() - $5 * interval '1 millisecond'
      WHERE scope = $1 AND method = $2 AND path = $3 AND key = $4`,
    [id.scope, id.method, id.path, id.key, ms],
  );
}

describe('Postgres idempotency store', () => {
  const store = () => createPostgresIdempotencyStore({ pool, schema });

  it('when a key is new, then it is claimed; while held, others see it in flight; once completed, the answer comes back', async () => {
    const s = store();
    const id = keyId();
    const claim = await s.claim(id, request);
    expect(claim.state).toBe('claimed');
    expect(await s.claim(id, request)).toEqual({ state: 'inFlight' });
    if (claim.state !== 'claimed') throw new Error('not claimed');

    await s.complete(id, claim.token, request, answer);
    expect(await s.claim(id, request)).toEqual({ state: 'completed', request, answer });
  });

  it('when the same key is used by another scope, method or path, then each is its own key', async () => {
    const s = store();
    const id = keyId();
    expect((await s.claim(id, request)).state).toBe('claimed');
    expect((await s.claim({ ...id, scope: randomUUID() }, request)).state).toBe('claimed');
    expect((await s.claim({ ...id, path: '/v1/batches' }, request)).state).toBe('claimed');
  });

  it('when a streamed request holds the key without a fingerprint yet, then others see it in flight', async () => {
    const s = store();
    const id = keyId();
    const claim = await s.claim(id, null);
    expect(claim.state).toBe('claimed');
    expect(await s.claim(id, request)).toEqual({ state: 'inFlight' });
    if (claim.state !== 'claimed') throw new Error('not claimed');
    await s.complete(id, claim.token, request, answer);
    expect((await s.claim(id, null)).state).toBe('completed');
  });

  it('when the key is released, then the next request claims it afresh', async () => {
    const s = store();
    const id = keyId();
    const claim = await s.claim(id, request);
    if (claim.state !== 'claimed') throw new Error('not claimed');
    await s.release(id, claim.token);
    expect((await s.claim(id, request)).state).toBe('claimed');
  });

  it('when the holder outlived its lease, then the key is taken over and the old holder can no longer complete it', async () => {
    const s = store();
    const id = keyId();
    const old = await s.claim(id, request);
    if (old.state !== 'claimed') throw new Error('not claimed');
    await age(id, 'locked_until', 1000);

    const taken = await s.claim(id, request);
    expect(taken.state).toBe('claimed');
    await s.complete(id, old.token, request, { ...answer, status: 400 });
    expect(await s.claim(id, request)).toEqual({ state: 'inFlight' });
  });

  it('when an answer is older than the retention, then it is not replayed: the key is claimed afresh', async () => {
    const s = store();
    const id = keyId();
    const claim = await s.claim(id, request);
    if (claim.state !== 'claimed') throw new Error('not claimed');
    await s.complete(id, claim.token, request, answer);
    await age(id, 'created_at', 24 * 3600_000 + 1000);
    expect((await s.claim(id, request)).state).toBe('claimed');
  });

  it('when keys expired, then the purge deletes them, at most a batch at a time, and keeps the rest', async () => {
    const s = createPostgresIdempotencyStore({ pool, schema, purgeBatch: 2 });
    await pool.query(`DELETE FROM "${schema}".idempotency_key`);
    const expired = [keyId(), keyId(), keyId()];
    const fresh = keyId();
    for (const id of [...expired, fresh]) await s.claim(id, request);
    for (const id of expired) await age(id, 'created_at', 25 * 3600_000);

    expect(await s.purgeExpired()).toBe(2);
    expect(await s.purgeExpired()).toBe(1);
    expect(await s.purgeExpired()).toBe(0);
    const { rows } = await pool.query(`SELECT key FROM "${schema}".idempotency_key`);
    expect(rows).toEqual([{ key: fresh.key }]);
  });
});

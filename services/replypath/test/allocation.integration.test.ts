import { randomUUID } from 'node:crypto';
import { createPool, migrate, withTransaction } from '@msg/db';
import { createLogger } from '@msg/logger';
import { createScratchDatabase, type ScratchDatabase } from '@msg/testing';
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  allocateReservations,
  previewAllocation,
  type ReservationRequest,
} from '../src/pool/allocation.js';
import { PoolExhaustedError } from '../src/pool/pool-exhausted.js';
import { createPoolStore } from '../src/pool/pool-store.js';
import { findActiveReservation, releaseReservation } from '../src/pool/reservation-store.js';
import { REPLYPATH_MIGRATIONS } from '../src/service.js';

const HOUR = 3_600_000;
const QUARANTINE = HOUR;
const T0 = new Date('2026-11-24T10:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);

const numbers = (count: number) =>
  Array.from({ length: count }, (_, i) => `+46701740${(605 + i).toString()}`);

function request(recipient: string, vpMinutes = 60): ReservationRequest {
  return {
    recipient,
    transactionId: randomUUID(),
    accountId: randomUUID(),
    oneShot: false,
    dlr: false,
    vpMinutes,
  };
}

/** One allocation in its own transaction, as a send does; the error when refused. */
function allocate(pool: pg.Pool, recipient: string, when = T0, vpMinutes = 60) {
  return withTransaction(pool, (client) =>
    allocateReservations(client, [request(recipient, vpMinutes)], {
      at: when,
      quarantineMs: QUARANTINE,
    }),
  ).then(
    ([reservation]) => reservation?.number as string,
    (err: unknown) => err,
  );
}

// Real Postgres (TEST_DATABASE_URL): concurrency across connections, as across replicas.
describe('allocation of reply-path numbers', () => {
  let scratch: ScratchDatabase;
  let pool: pg.Pool;

  beforeAll(async () => {
    scratch = await createScratchDatabase('replypath_alloc');
    pool = createPool({ url: scratch.url, max: 20, applicationName: 'replypath-alloc-test' });
    await migrate({
      pool,
      schema: 'replypath',
      migrationsDirs: REPLYPATH_MIGRATIONS,
      logger: createLogger({ service: 'replypath-test', level: 'error' }),
    });
  });

  beforeEach(async () => {
    await pool.query('TRUNCATE replypath.reservations, replypath.pool_numbers');
  });

  afterAll(async () => {
    await pool?.end();
    await scratch?.drop();
  });

  it('when 50 allocations for one recipient run at once, then no two share a number', async () => {
    await createPoolStore(pool).add(numbers(60));
    const got = await Promise.all(Array.from({ length: 50 }, () => allocate(pool, '+46701111111')));
    expect(got.every((n) => typeof n === 'string')).toBe(true);
    expect(new Set(got).size).toBe(50);
  });

  it('when 50 allocations for one recipient meet a pool of 20, then 20 get distinct numbers and 30 a clean 429', async () => {
    await createPoolStore(pool).add(numbers(20));
    const got = await Promise.all(Array.from({ length: 50 }, () => allocate(pool, '+46701111112')));
    const allocated = got.filter((n): n is string => typeof n === 'string');
    const refused = got.filter((n) => n instanceof PoolExhaustedError);
    expect(new Set(allocated).size).toBe(20);
    expect(refused).toHaveLength(30);
    // VP 60 minutes + a quarantine of one hour, all reserved at T0.
    expect(refused[0]?.status).toBe(429);
    expect(refused[0]?.headers['Retry-After']).toBe(String(2 * 3600));
  });

  it('when the pool is exhausted for a recipient, then Retry-After counts to the earliest quarantine end', async () => {
    await createPoolStore(pool).add(numbers(2));
    await allocate(pool, '+46701111113', T0, 10);
    await allocate(pool, '+46701111113', at(5 * 60_000), 30);
    // Now T0 + 20 min: the first frees at T0 + 10 min + 1 h.
    const refused = await allocate(pool, '+46701111113', at(20 * 60_000));
    expect(refused).toBeInstanceOf(PoolExhaustedError);
    expect((refused as PoolExhaustedError).headers['Retry-After']).toBe(String(50 * 60));
  });

  it('when a reservation has ended but its quarantine has not, then its pair is not reused; after it, it is', async () => {
    await createPoolStore(pool).add(numbers(1));
    const first = await allocate(pool, '+46701111114', T0, 10);
    expect(first).toBe('+46701740605');
    expect(await allocate(pool, '+46701111114', at(10 * 60_000))).toBeInstanceOf(
      PoolExhaustedError,
    );
    expect(await allocate(pool, '+46701111114', at(10 * 60_000 + HOUR - 1))).toBeInstanceOf(
      PoolExhaustedError,
    );
    expect(await allocate(pool, '+46701111114', at(10 * 60_000 + HOUR))).toBe('+46701740605');
  });

  it('when different recipients allocate at once, then they may share a number', async () => {
    await createPoolStore(pool).add(numbers(1));
    const got = await Promise.all(
      Array.from({ length: 10 }, (_, i) => allocate(pool, `+4670111112${i}`)),
    );
    expect(got).toEqual(Array(10).fill('+46701740605'));
  });

  it('when numbers are free, then the least recently allocated is chosen', async () => {
    await createPoolStore(pool).add(numbers(3));
    expect(await allocate(pool, '+46701111131', T0)).toBe('+46701740605');
    expect(await allocate(pool, '+46701111132', at(1000))).toBe('+46701740606');
    expect(await allocate(pool, '+46701111133', at(2000))).toBe('+46701740607');
    expect(await allocate(pool, '+46701111134', at(3000))).toBe('+46701740605');
  });

  it('when a number is disabled, then it is not allocated', async () => {
    const store = createPoolStore(pool);
    await store.add(numbers(2));
    await store.setEnabled('+46701740605', false);
    expect(await allocate(pool, '+46701111141')).toBe('+46701740606');
    expect(await allocate(pool, '+46701111141')).toBeInstanceOf(PoolExhaustedError);
  });

  it('when the pool has no enabled number, then 429 with a fixed Retry-After, never a 500', async () => {
    const refused = await allocate(pool, '+46701111151');
    expect(refused).toBeInstanceOf(PoolExhaustedError);
    expect((refused as PoolExhaustedError).headers['Retry-After']).toBe('60');
  });

  it('when one request names several recipients and the last has no number, then none is reserved', async () => {
    await createPoolStore(pool).add(numbers(1));
    await allocate(pool, '+46701111161');
    const refused = await withTransaction(pool, (client) =>
      allocateReservations(client, [request('+46701111162'), request('+46701111161')], {
        at: T0,
        quarantineMs: QUARANTINE,
      }),
    ).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(PoolExhaustedError);
    const { rows } = await pool.query(
      'SELECT count(*)::int AS n FROM replypath.reservations WHERE recipient = $1',
      ['+46701111162'],
    );
    expect(rows[0].n).toBe(0);
  });

  it('when a pair overlaps an existing reservation, then the exclusion constraint refuses it (23P01)', async () => {
    await createPoolStore(pool).add(numbers(1));
    await allocate(pool, '+46701111171');
    const err = await pool
      .query(
        `INSERT INTO replypath.reservations (id, number, recipient, transaction_id, account_id,
           one_shot, dlr, starts_at, ends_at, quarantine_until)
         VALUES ($1, '+46701740605', '+46701111171', $2, $3, false, false, $4, $4, $5)`,
        [randomUUID(), randomUUID(), randomUUID(), at(HOUR), at(3 * HOUR)],
      )
      .catch((e: { code?: string }) => e);
    expect((err as { code?: string }).code).toBe('23P01');
  });

  it('when a dry run previews, then it names the number a real allocation takes and writes nothing', async () => {
    await createPoolStore(pool).add(numbers(2));
    const preview = await previewAllocation(pool, ['+46701111181', '+46701111181'], T0);
    expect(preview).toEqual(['+46701740605', '+46701740606']);
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM replypath.reservations');
    expect(rows[0].n).toBe(0);
    expect(await allocate(pool, '+46701111181')).toBe('+46701740605');
  });

  it('when a reply window is open, then the active reservation is found; after VP, or once released, it is not', async () => {
    await createPoolStore(pool).add(numbers(1));
    await allocate(pool, '+46701111191', T0, 10);
    const pair = { recipient: '+46701111191', number: '+46701740605' };
    expect(await findActiveReservation(pool, { ...pair, at: at(9 * 60_000) })).toMatchObject({
      ...pair,
      endsAt: at(10 * 60_000),
      quarantineUntil: at(10 * 60_000 + HOUR),
    });
    expect(await findActiveReservation(pool, { ...pair, at: at(10 * 60_000) })).toBeUndefined();
    const reservation = await findActiveReservation(pool, { ...pair, at: T0 });
    expect(
      await releaseReservation(pool, {
        transactionId: reservation?.transactionId as string,
        at: at(60_000),
        quarantineMs: QUARANTINE,
      }),
    ).toBe(true);
    expect(await findActiveReservation(pool, { ...pair, at: at(2 * 60_000) })).toBeUndefined();
    // Released at T0 + 1 min: the pair is free one quarantine later.
    expect(await allocate(pool, pair.recipient, at(60_000 + HOUR - 1))).toBeInstanceOf(
      PoolExhaustedError,
    );
    expect(await allocate(pool, pair.recipient, at(60_000 + HOUR))).toBe(pair.number);
  });

  it('when a number still holds a reservation, then it cannot be removed; once free, it can', async () => {
    const store = createPoolStore(pool, () => T0);
    await store.add(numbers(1));
    await allocate(pool, '+46701111201', T0, 10);
    await expect(store.remove('+46701740605')).rejects.toMatchObject({ status: 409 });
    const later = createPoolStore(pool, () => at(10 * 60_000 + HOUR));
    await later.remove('+46701740605');
    expect(await later.list()).toEqual([]);
  });
});

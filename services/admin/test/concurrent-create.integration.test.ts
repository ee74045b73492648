import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type pg from 'pg';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdminOnScratchDatabase } from './scratch-database.js';
import { ADMIN_TOKEN } from './support.js';

const CONCURRENT = 10;
const ROUNDS = 5;

let scratch: Awaited<ReturnType<typeof startAdminOnScratchDatabase>>;
let pool: pg.Pool;
let server: Server;

beforeAll(async () => {
  scratch = await startAdminOnScratchDatabase('admin_it', CONCURRENT);
  ({ pool, server } = scratch);
}, 60_000);

afterAll(async () => {
  await scratch?.stop();
});

describe('createAccount under concurrency (real Postgres)', () => {
  it(`when ${CONCURRENT} creates of one name arrive at once, then exactly one 201 and the rest 409 CONFLICT, never a 500`, async () => {
    for (let round = 1; round <= ROUNDS; round += 1) {
      const name = `race-${round}-${randomBytes(3).toString('hex')}`;
      // Letter case differs between racers: the name is unique case-insensitively.
      const responses = await Promise.all(
        Array.from({ length: CONCURRENT }, (_, i) =>
          request(server)
            .post('/internal/v1/accounts')
            .set('Authorization', `Bearer ${ADMIN_TOKEN}`)
            .send({ name: i % 2 === 0 ? name : name.toUpperCase() }),
        ),
      );
      const statuses = responses.map((res) => res.status).sort();
      expect(statuses).toEqual([201, ...Array<number>(CONCURRENT - 1).fill(409)]);
      for (const res of responses.filter((r) => r.status === 409)) {
        expect(res.body).toEqual({
          code: 'CONFLICT',
          message: 'A resource with the same unique value already exists',
        });
      }
      const { rows } = await pool.query<{ count: number }>(
        'SELECT count(*)::int AS count FROM admin.account WHERE name_key = $1',
        [name.toLowerCase()],
      );
      expect(rows[0]?.count).toBe(1);
    }
  });
});

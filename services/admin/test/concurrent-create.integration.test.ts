import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { createInProcessBus } from '@msg/bus';
import { createPool } from '@msg/db';
import { createLogger } from '@msg/logger';
import type pg from 'pg';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAdminConfig } from '../src/config.js';
import { startAdmin } from '../src/service.js';

const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ADMIN_TOKEN = 'test-admin-token-0123456789';
const CONCURRENT = 10;
const ROUNDS = 5;

// A scratch database per run: the schema name "admin" is fixed and must not meet another run.
const databaseName = `msg_admin_it_${randomBytes(4).toString('hex')}`;
let adminPool: pg.Pool;
let pool: pg.Pool;
let stopAdmin: () => Promise<void>;
let server: Server;

beforeAll(async () => {
  adminPool = createPool({ url: adminUrl, max: 1, applicationName: 'admin-it-admin' });
  await adminPool.query(`CREATE DATABASE "${databaseName}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${databaseName}`;
  // As many connections as racing requests, so the race is decided by Postgres, not the pool.
  pool = createPool({ url: url.href, max: CONCURRENT, applicationName: 'admin-it' });
  const logger = createLogger({ service: 'admin-it', level: 'error' });
  const bus = createInProcessBus({ logger });
  const admin = await startAdmin(loadAdminConfig({ ADMIN_TOKEN, LOG_LEVEL: 'error' }), {
    pool,
    bus,
    logger,
  });
  stopAdmin = async () => {
    await admin.stop();
    await bus.close();
  };
  server = admin.app.listen(0, '127.0.0.1');
}, 60_000);

afterAll(async () => {
  server?.close();
  await stopAdmin?.();
  await pool?.end();
  await adminPool?.query(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`);
  await adminPool?.end();
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

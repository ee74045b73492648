import type pg from 'pg';
import { afterAll, beforeAll, describe } from 'vitest';
import { createPool } from '../src/pool.js';
import { copyRowsCases } from './support/copy-rows-cases.js';

const url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

// Real Postgres: copyRows streams COPY ... FROM STDIN.
describe('copyRows on Postgres (COPY FROM STDIN)', () => {
  let pool: pg.Pool;
  beforeAll(() => {
    pool = createPool({ url, max: 2, applicationName: 'db-test' });
  });
  afterAll(async () => {
    await pool?.end();
  });
  copyRowsCases(() => pool);
});

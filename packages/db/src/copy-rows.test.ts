import type pg from 'pg';
import { afterAll, beforeAll, describe } from 'vitest';
import { copyRowsCases } from '../test/support/copy-rows-cases.js';
import { type EmbeddedPostgres, startEmbeddedPostgres } from './embedded-postgres.js';
import { createPool } from './pool.js';

describe('copyRows on embedded Postgres (COPY FROM STDIN)', () => {
  let embedded: EmbeddedPostgres;
  let pool: pg.Pool;
  beforeAll(async () => {
    embedded = await startEmbeddedPostgres();
    pool = createPool({ url: embedded.url, ...embedded.poolOptions });
  });
  afterAll(async () => {
    await pool?.end();
    await embedded?.stop();
  });
  copyRowsCases(() => pool);
});

import { fileURLToPath } from 'node:url';
import { quoteSchema } from '@msg/db';
import type pg from 'pg';
import {
  type BucketStore,
  createSharedRateLimiter,
  type SharedRateLimiter,
  type SharedRateLimiterOptions,
} from './shared-rate-limiter.js';

/** The migration of the shared buckets' table; apply it into the schema the limiter is given. */
export const RATE_LIMIT_MIGRATIONS_DIR = fileURLToPath(
  new URL('../prisma/migrations', import.meta.url),
);

/**
 * One statement per lease: refill to the database's clock (one clock for every replica), then take
 * `want` whole tokens or what there is if it covers the cost, under the row lock of the upsert.
 * A new key starts with a full bucket. `now()` is fixed for the statement; a lease that waited for
 * the lock never moves updated_at back, so no refill is counted twice.
 */
function leaseSql(table: string): string {
  return `INSERT INTO ${table} AS b (key, tokens, granted, updated_at)
VALUES ($1, $3::float8 - $4::float8, $4::float8, now())
ON CONFLICT (key) DO UPDATE SET (tokens, granted, updated_at) = (
  SELECT available - take, take, greatest(b.updated_at, now())
  FROM (
    SELECT available,
      CASE WHEN available >= $5::float8
        THEN greatest($5::float8, least($4::float8, floor(available))) ELSE 0 END AS take
    FROM (
      SELECT least($3::float8,
        b.tokens + greatest(0, extract(epoch FROM now() - b.updated_at)) * $2::float8) AS available
    ) AS refilled
  ) AS decided
)
RETURNING granted, tokens`;
}

/** Shared buckets in `<schema>.rate_limit_bucket` (see RATE_LIMIT_MIGRATIONS_DIR). */
export function createPostgresBucketStore({
  pool,
  schema,
}: {
  pool: pg.Pool;
  schema: string;
}): BucketStore {
  const text = leaseSql(`${quoteSchema(schema)}."rate_limit_bucket"`);
  return {
    async lease(key, { perSecond, burst }, want, cost) {
      // Unnamed on purpose: the earlier embedded database (PGlite) kept one session behind every
      // connection, where a named statement outlived the client that prepared it; unnamed works
      // on any server, pooler included.
      const { rows } = await pool.query<{ granted: number; tokens: number }>(text, [
        key,
        perSecond,
        burst,
        want,
        cost,
      ]);
      const row = rows[0];
      if (!row) throw new Error('rate limit lease returned no row');
      return { granted: row.granted, left: row.tokens };
    },
  };
}

export interface PostgresRateLimiterOptions extends Omit<SharedRateLimiterOptions, 'store'> {
  pool: pg.Pool;
  /** The service's schema, migrated with RATE_LIMIT_MIGRATIONS_DIR. */
  schema: string;
}

/**
 * The per-account request limiter of a service with a database: the account's rate holds across
 * all its replicas (see createSharedRateLimiter for the bound).
 */
export function createPostgresRateLimiter({
  pool,
  schema,
  ...options
}: PostgresRateLimiterOptions): SharedRateLimiter {
  return createSharedRateLimiter({
    ...options,
    store: createPostgresBucketStore({ pool, schema }),
  });
}

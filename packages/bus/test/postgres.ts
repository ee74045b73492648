import { randomUUID } from 'node:crypto';
import { migrate } from '@msg/db';
import pg from 'pg';
import { OUTBOX_MIGRATIONS_DIR } from '../src/index.js';
import { quietLogger, testDatabaseUrl } from './helpers.js';

export interface TestSchema {
  pool: pg.Pool;
  schema: string;
  /** Runs `fn` in a transaction on one client, as a service would around its state change. */
  transaction<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T>;
  drop(): Promise<void>;
}

/** A schema of its own per test file, with the outbox tables (the package's migration), dropped afterwards. */
export async function createTestSchema(): Promise<TestSchema> {
  const pool = new pg.Pool({ connectionString: testDatabaseUrl, max: 6 });
  const schema = `bus_test_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  await migrate({ pool, schema, migrationsDirs: [OUTBOX_MIGRATIONS_DIR], logger: quietLogger() });
  return {
    pool,
    schema,
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn(client);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      } finally {
        client.release();
      }
    },
    async drop() {
      await pool.query(`DROP SCHEMA "${schema}" CASCADE`);
      await pool.end();
    },
  };
}

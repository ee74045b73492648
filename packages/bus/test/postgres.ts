import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { outboxMigrationSql } from '../src/index.js';
import { testDatabaseUrl } from './helpers.js';

export interface TestSchema {
  pool: pg.Pool;
  schema: string;
  /** Runs `fn` in a transaction on one client, as a service would around its state change. */
  transaction<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T>;
  drop(): Promise<void>;
}

/** A schema of its own per test file, with the outbox tables, dropped afterwards. */
export async function createTestSchema(): Promise<TestSchema> {
  const pool = new pg.Pool({ connectionString: testDatabaseUrl, max: 6 });
  const schema = `bus_test_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  await pool.query(`CREATE SCHEMA "${schema}"`);
  await pool.query(outboxMigrationSql(schema));
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

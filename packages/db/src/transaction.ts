import type pg from 'pg';

/**
 * Runs `fn` inside BEGIN/COMMIT on one pooled connection; any throw rolls back and is rethrown.
 * Everything inside must go through the given client: a query on the pool itself runs outside
 * the transaction, on another connection (or waits for one when the pool is exhausted).
 */
export async function withTransaction<T>(
  pool: pg.Pool,
  fn: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  // A connection whose ROLLBACK failed is in an unknown state: destroy it instead of reusing it.
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    try {
      await client.query('ROLLBACK');
    } catch (rollbackErr) {
      broken = rollbackErr instanceof Error ? rollbackErr : new Error(String(rollbackErr));
    }
    throw err;
  } finally {
    client.release(broken);
  }
}

import { createPool, migrate, startEmbeddedPostgres } from '@msg/db';
import { createLogger } from '@msg/logger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresBucketStore, RATE_LIMIT_MIGRATIONS_DIR } from './postgres-rate-limiter.js';

const schema = 'limits';
const logger = createLogger({ service: 'auth-test', level: 'error' });

// Whatever a statement leaves in a session (a prepared name) must not break the next connection.
describe('Postgres bucket store on the embedded database', () => {
  let database: Awaited<ReturnType<typeof startEmbeddedPostgres>>;
  let pool: ReturnType<typeof createPool>;

  beforeAll(async () => {
    database = await startEmbeddedPostgres();
    pool = createPool({ url: database.url, ...database.poolOptions });
    await migrate({ pool, schema, migrationsDirs: [RATE_LIMIT_MIGRATIONS_DIR], logger });
  });
  afterAll(async () => {
    await pool.end();
    await database.stop();
  });

  it('when the pool replaced its connection after an error, then leases still work', async () => {
    const store = createPostgresBucketStore({ pool, schema });
    const limit = { perSecond: 10, burst: 10 };
    expect((await store.lease('sms:a', limit, 2, 1)).granted).toBe(2);

    // What a failed statement does to a connection: the pool destroys it and opens another.
    const client = await pool.connect();
    client.release(new Error('connection broken by a failed statement'));

    expect((await store.lease('sms:a', limit, 2, 1)).granted).toBe(2);
    expect((await store.lease('sms:b', limit, 3, 1)).granted).toBe(3);
  });
});

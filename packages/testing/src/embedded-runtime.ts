import { createInProcessBus, type ServiceRuntime } from '@msg/bus';
import { createPool, startEmbeddedPostgres } from '@msg/db';
import { createLogger } from '@msg/logger';

export interface TestRuntime extends ServiceRuntime {
  /** Ends the pool, the bus and the database, in that order. Stop the service first. */
  stop(): Promise<void>;
}

/**
 * What a service needs to run in a component test, as in the embedded suite: embedded Postgres
 * (a temporary database), the in-process bus and an error-level logger. With `databaseUrl`, real Postgres instead (integration tier).
 */
export async function startTestRuntime({
  service,
  databaseUrl,
}: {
  service: string;
  databaseUrl?: string;
}): Promise<TestRuntime> {
  const logger = createLogger({ service: `${service}-test`, level: 'error' });
  const database = databaseUrl ? undefined : await startEmbeddedPostgres({});
  const pool = database
    ? createPool({ url: database.url, ...database.poolOptions })
    : createPool({ url: databaseUrl ?? '', max: 4, applicationName: `${service}-test` });
  const bus = createInProcessBus({ logger });
  return {
    pool,
    bus,
    logger,
    async stop() {
      await bus.close();
      await pool.end();
      await database?.stop();
    },
  };
}

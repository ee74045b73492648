import type { Logger } from '@msg/logger';
import pg from 'pg';

export interface PoolOptions {
  /** postgres:// connection string. */
  url: string;
  /** Most connections this pool opens. */
  max?: number;
  /** Shown in pg_stat_activity, so an operator can tell which service holds a connection. */
  applicationName?: string;
  /** How long an idle connection stays open; 0 keeps it forever. */
  idleTimeoutMillis?: number;
  /** Receives errors of idle connections (server restart, network cut). */
  logger?: Logger;
}

/** A pg pool. Connects lazily, so creating one never touches the network. */
export function createPool({
  url,
  max = 10,
  applicationName,
  idleTimeoutMillis = 10_000,
  logger,
}: PoolOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    idleTimeoutMillis,
    ...(applicationName && { application_name: applicationName }),
  });
  // Without a listener, an error on an idle connection would crash the process; the pool already
  // drops the broken connection and opens a new one on the next checkout.
  pool.on('error', (err) => {
    logger?.warn('idle database connection failed', { err: err.message });
  });
  // pg-pool listens only while a connection is idle. A checked-out one whose server process ends
  // (a restart, a failover, pg_terminate_backend) fails its query and then also emits 'error',
  // which without a listener was an uncaught exception that ended the whole process. The query's
  // own rejection is what the caller handles; releasing the client discards it. The listener is
  // there only while the connection is out, so an idle failure is reported once, above.
  const inUse = (err: Error) => {
    logger?.warn('database connection in use failed', { err: err.message });
  };
  pool.on('acquire', (client) => client.on('error', inUse));
  pool.on('release', (_err, client) => client.removeListener('error', inUse));
  return pool;
}

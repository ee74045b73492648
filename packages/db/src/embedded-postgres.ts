import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface EmbeddedPostgresOptions {
  /** Directory to keep the data in across restarts; in memory when absent. */
  dataDir?: string;
}

export interface EmbeddedPostgres {
  /** postgres:// URL of the server, on 127.0.0.1 and a port the OS picked. */
  url: string;
  /**
   * Pool settings the server needs: it accepts ONE connection, so every user in the process must
   * share one pool of one connection that is never closed for idleness.
   */
  poolOptions: { max: 1; idleTimeoutMillis: 0 };
  /** Stops the server and closes the database. End the pool first. */
  stop(): Promise<void>;
}

/**
 * Postgres with zero setup: PGlite (Postgres compiled to WebAssembly, in this process) served on
 * the Postgres wire protocol, so the same pg and Prisma code runs against it as in production.
 *
 * PGlite is a single session. pglite-socket can multiplex several client connections onto it,
 * but then their extended-protocol messages may interleave and they share one session (advisory
 * locks, SET, LISTEN, open transactions), so we allow exactly one connection.
 */
export async function startEmbeddedPostgres({
  dataDir,
}: EmbeddedPostgresOptions = {}): Promise<EmbeddedPostgres> {
  const db = await PGlite.create(dataDir === undefined ? {} : { dataDir });
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 1 });
  try {
    await server.start();
  } catch (err) {
    await db.close();
    throw err;
  }
  let stopped = false;
  return {
    url: `postgres://postgres@${server.getServerConn()}/postgres`,
    poolOptions: { max: 1, idleTimeoutMillis: 0 },
    async stop() {
      if (stopped) return;
      stopped = true;
      await server.stop();
      await db.close();
    },
  };
}

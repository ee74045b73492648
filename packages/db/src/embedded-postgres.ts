import { mkdir } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { startSingleConnectionGate } from './single-connection-gate.js';

export interface EmbeddedPostgresOptions {
  /**
   * Directory to keep the data in across restarts, created with its parents when missing (a fresh
   * clone has no `.data/`); in memory when absent.
   */
  dataDir?: string;
  /** How long a second connection waits for the first to close before it is refused. */
  connectionWaitMs?: number;
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
 * locks, SET, LISTEN, open transactions), so we allow exactly one connection: pglite-socket runs
 * with maxConnections 1 behind a gate that queues a reconnecting client until the previous
 * connection is gone (see single-connection-gate.ts).
 */
export async function startEmbeddedPostgres({
  dataDir,
  connectionWaitMs = 5_000,
}: EmbeddedPostgresOptions = {}): Promise<EmbeddedPostgres> {
  const host = '127.0.0.1';
  // PGlite creates only the last component of the path itself.
  if (dataDir !== undefined) await mkdir(dataDir, { recursive: true });
  const db = await PGlite.create(dataDir === undefined ? {} : { dataDir });
  const server = new PGLiteSocketServer({ db, host, port: 0, maxConnections: 1 });
  const stops: (() => Promise<void>)[] = [() => db.close()];
  const stopAll = async () => {
    for (const stop of stops.splice(0)) await stop();
  };
  try {
    await server.start();
    stops.unshift(() => server.stop());
    const gate = await startSingleConnectionGate({
      host,
      upstreamPort: Number(server.getServerConn().split(':').pop()),
      upstreamIdle: () => server.getStats().activeConnections === 0,
      waitTimeoutMs: connectionWaitMs,
    });
    stops.unshift(async () => {
      await gate.close();
      // Let pglite-socket finish with the closed connection (it rolls back an open transaction)
      // before the database closes under it.
      for (let waited = 0; server.getStats().activeConnections > 0 && waited < 1_000; waited += 5) {
        await sleep(5);
      }
    });
    return {
      url: `postgres://postgres@${host}:${gate.port}/postgres`,
      poolOptions: { max: 1, idleTimeoutMillis: 0 },
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

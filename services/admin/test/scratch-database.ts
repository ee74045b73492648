import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { createInProcessBus } from '@msg/bus';
import { createPool } from '@msg/db';
import { createLogger } from '@msg/logger';
import { loadAdminConfig } from '../src/config.js';
import { startAdmin } from '../src/service.js';
import { ADMIN_TOKEN, BILLING_TOKEN } from './support.js';

const serverUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * The admin service listening on a scratch database of the real Postgres server (the schema name
 * "admin" is fixed and must not meet another run), with `connections` pool connections: as many
 * as the requests a test races, so the race is decided by Postgres, not the pool.
 */
export async function startAdminOnScratchDatabase(name: string, connections: number) {
  const databaseName = `msg_${name}_${randomBytes(4).toString('hex')}`;
  const serverPool = createPool({ url: serverUrl, max: 1, applicationName: `${name}-admin` });
  await serverPool.query(`CREATE DATABASE "${databaseName}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${databaseName}`;
  const pool = createPool({ url: url.href, max: connections, applicationName: name });
  const logger = createLogger({ service: name, level: 'error' });
  const bus = createInProcessBus({ logger });
  const config = { ADMIN_TOKEN, BILLING_INTERNAL_TOKEN: BILLING_TOKEN, LOG_LEVEL: 'error' };
  const admin = await startAdmin(loadAdminConfig(config), { pool, bus, logger });
  const server: Server = admin.app.listen(0, '127.0.0.1');
  return {
    pool,
    server,
    async stop() {
      server.close();
      await admin.stop();
      await bus.close();
      await pool.end();
      await serverPool.query(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`);
      await serverPool.end();
    },
  };
}

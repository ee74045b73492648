import { randomBytes } from 'node:crypto';
import { createPool } from '@msg/db';

export interface ScratchDatabase {
  /** Connection URL of the new database. */
  url: string;
  /** Drops the database (WITH FORCE: connections left open do not block it). */
  drop(): Promise<void>;
}

/**
 * A database of its own on TEST_DATABASE_URL's server (default the local Postgres): a service's
 * schema name is fixed and must not meet another test run's. `prefix` names it for whoever
 * looks at the server (`msg_<prefix>_<random>`).
 */
export async function createScratchDatabase(prefix: string): Promise<ScratchDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const name = `msg_${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = () => createPool({ url: serverUrl, max: 1, applicationName: `${prefix}-admin` });
  const creator = admin();
  try {
    await creator.query(`CREATE DATABASE "${name}"`);
  } finally {
    await creator.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    async drop() {
      const dropper = admin();
      try {
        await dropper.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await dropper.end();
      }
    },
  };
}

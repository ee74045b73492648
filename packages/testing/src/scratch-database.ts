import { randomBytes } from 'node:crypto';
import { createPool } from '@msg/db';

export interface ScratchDatabase {
  /** postgres:// URL of the new database. */
  url: string;
  /** Drops it, ending whatever sessions are still open on it. */
  drop(): Promise<void>;
}

const serverUrl = () => process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function onServer(statement: string): Promise<void> {
  const admin = createPool({ url: serverUrl(), max: 1, applicationName: 'scratch-database' });
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

/**
 * A database of its own on TEST_DATABASE_URL's server (the integration tier's real Postgres):
 * a service's schema name is fixed, so two runs sharing the server must not meet in one database.
 */
export async function createScratchDatabase(prefix: string): Promise<ScratchDatabase> {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  await onServer(`CREATE DATABASE "${name}"`);
  const url = new URL(serverUrl());
  url.pathname = `/${name}`;
  return { url: url.href, drop: () => onServer(`DROP DATABASE "${name}" WITH (FORCE)`) };
}

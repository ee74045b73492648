import type { Sql } from './sql.js';

/**
 * The /readyz check of a service that needs its database: a trivial query must answer. The HTTP
 * layer bounds how long a check may take, so a hung connection reads as not ready.
 */
export function databaseReadiness(pool: Sql): { name: string; isReady(): Promise<boolean> } {
  return {
    name: 'database',
    isReady: () =>
      pool.query('SELECT 1').then(
        () => true,
        () => false,
      ),
  };
}

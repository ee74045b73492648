import { PrismaPg } from '@prisma/adapter-pg';
import type pg from 'pg';

/**
 * Builds a service's generated Prisma client on an existing pg pool, so Prisma and raw pg share
 * the same connections. The pool stays owned by
 * the caller: `$disconnect()` does not end it.
 */
export function createPrismaClient<C>(
  Client: new (options: { adapter: PrismaPg }) => C,
  pool: pg.Pool,
): C {
  return new Client({ adapter: new PrismaPg(pool) });
}

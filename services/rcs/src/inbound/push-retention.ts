import type pg from 'pg';
import { RCS_SCHEMA } from '../schema.js';

/**
 * RBM redelivers a push until it is acknowledged, within hours, never weeks: the ids of handled
 * pushes are kept `retainMs` (7 days by default) and then deleted, in bounded batches, so the
 * table that makes a redelivered push a no-op does not grow with every push ever received.
 */
export function purgeHandledPushes(
  pool: pg.Pool,
  options: { retainMs?: number; batch?: number; now?: () => Date } = {},
): () => Promise<number> {
  const retainMs = options.retainMs ?? 7 * 24 * 3_600_000;
  const batch = options.batch ?? 10_000;
  const now = options.now ?? (() => new Date());
  return async () => {
    let deleted = 0;
    for (;;) {
      const { rowCount } = await pool.query(
        `DELETE FROM "${RCS_SCHEMA}"."rbm_pushes" WHERE "push_id" IN (
           SELECT "push_id" FROM "${RCS_SCHEMA}"."rbm_pushes"
            WHERE "received_at" < $1 LIMIT $2)`,
        [new Date(now().getTime() - retainMs), batch],
      );
      deleted += rowCount ?? 0;
      if ((rowCount ?? 0) < batch) return deleted;
    }
  };
}

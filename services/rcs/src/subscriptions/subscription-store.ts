import type pg from 'pg';
import { RCS_SCHEMA } from '../schema.js';

const UNSUBSCRIBED = `"${RCS_SCHEMA}"."unsubscribed"`;

/** How a user unsubscribed: RBM's UNSUBSCRIBE event, or a stop word in a text (@msg/optout). */
export type UnsubscribeSource = 'event' | 'keyword';

/** Anything that runs a query: the pool, or a transaction's client. */
type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>;

/**
 * Who unsubscribed from which agent (spec 6.3: honoured immediately). Writes take the caller's
 * transaction client, so the change commits with the event that reports it.
 */
export function createSubscriptionStore(pool: pg.Pool) {
  return {
    /** Whether `phone` unsubscribed from `agentId` and has not subscribed again. */
    async isUnsubscribed(agentId: string, phone: string): Promise<boolean> {
      const { rowCount } = await pool.query(
        `SELECT 1 FROM ${UNSUBSCRIBED} WHERE "agent_id" = $1 AND "phone" = $2`,
        [agentId, phone],
      );
      return (rowCount ?? 0) > 0;
    },
  };
}

export type SubscriptionStore = ReturnType<typeof createSubscriptionStore>;

/** Marks the user unsubscribed (again: the first time and source are kept). */
export async function markUnsubscribed(
  db: Queryable,
  agentId: string,
  phone: string,
  source: UnsubscribeSource,
): Promise<void> {
  await db.query(
    `INSERT INTO ${UNSUBSCRIBED} ("agent_id", "phone", "source") VALUES ($1, $2, $3)
     ON CONFLICT ("agent_id", "phone") DO NOTHING`,
    [agentId, phone, source],
  );
}

/** Clears an unsubscription; true when there was one. */
export async function markSubscribed(db: Queryable, agentId: string, phone: string) {
  const { rowCount } = await db.query(
    `DELETE FROM ${UNSUBSCRIBED} WHERE "agent_id" = $1 AND "phone" = $2`,
    [agentId, phone],
  );
  return (rowCount ?? 0) > 0;
}

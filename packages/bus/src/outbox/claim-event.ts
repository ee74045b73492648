import type { Sql } from '@msg/db';
import { quoteSchema } from './schema-name.js';

/**
 * Delivery is at-least-once, so a consumer may see an event again. Call this in the transaction
 * that applies the event: true the first time for (consumer, event id), false ever after — skip
 * the work then. If the transaction rolls back, the claim goes with it.
 */
export async function claimEvent(
  sql: Sql,
  schema: string,
  consumer: string,
  eventId: string,
): Promise<boolean> {
  const result = await sql.query(
    `INSERT INTO ${quoteSchema(schema)}."processed_event" ("consumer", "event_id") VALUES ($1, $2)
     ON CONFLICT DO NOTHING`,
    [consumer, eventId],
  );
  return result.rowCount === 1;
}

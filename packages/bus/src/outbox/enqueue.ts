import type { Sql } from '@msg/db';
import { checkOutgoing } from '../event-validation.js';
import type { BusMessage } from '../types.js';
import { quoteSchema } from './schema-name.js';

/** Rows per INSERT: five parameters each keeps us far below Postgres' 65535-parameter limit. */
const ROWS_PER_STATEMENT = 1_000;

/**
 * Records messages to publish in the caller's transaction (pass the transaction's client), so
 * they are published if and only if the state change commits. The event id is the row id: the
 * same event enqueued twice is stored once. Messages that break their topic's schema are refused
 * (InvalidEventError) before anything is written.
 */
export async function enqueueOutbox(
  sql: Sql,
  schema: string,
  topic: string,
  messages: BusMessage[],
): Promise<void> {
  checkOutgoing(topic, messages);
  const table = `${quoteSchema(schema)}."outbox_event"`;
  for (let start = 0; start < messages.length; start += ROWS_PER_STATEMENT) {
    const chunk = messages.slice(start, start + ROWS_PER_STATEMENT);
    const values: unknown[] = [];
    const rows = chunk.map(({ key, value, headers }, i) => {
      values.push(
        value.id,
        topic,
        key,
        JSON.stringify(value),
        headers ? JSON.stringify(headers) : null,
      );
      const p = i * 5;
      return `($${p + 1}, $${p + 2}, $${p + 3}, $${p + 4}::jsonb, $${p + 5}::jsonb)`;
    });
    // Rows of one VALUES list get their seq in list order, which the relay publishes in.
    await sql.query(
      `INSERT INTO ${table} ("id", "topic", "key", "value", "headers") VALUES ${rows.join(', ')}
       ON CONFLICT ("id") DO NOTHING`,
      values,
    );
  }
}

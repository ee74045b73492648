import type { Sql } from '@msg/db';
import { checkOutgoing } from '../event-validation.js';
import type { BusMessage } from '../types.js';
import { quoteSchema } from './schema-name.js';

/** Rows per INSERT: five parameters each keeps us far below Postgres' 65535-parameter limit. */
const ROWS_PER_STATEMENT = 1_000;

/**
 * The NOTIFY channel that wakes the outbox relays of `schema`. A notification is delivered at
 * commit, to every replica listening, and only if the transaction commits.
 */
export function outboxChannel(schema: string): string {
  quoteSchema(schema);
  return `outbox_${schema}`;
}

/** SQL text and parameters, to be placed in a statement of the caller's. */
export interface SqlPart {
  text: string;
  values: unknown[];
}

/**
 * The INSERT of `messages` into `schema`'s outbox (at most ROWS_PER_STATEMENT of them), with its
 * parameters numbered from `firstParam` — for a caller that writes its own rows and the outbox
 * rows in one statement (a data-modifying CTE). It must also notify (outboxNotify), or the relay
 * only sees the rows on its fallback poll. Messages are checked against their topic's schema.
 */
export function outboxInsert(
  schema: string,
  topic: string,
  messages: BusMessage[],
  firstParam = 1,
): SqlPart {
  if (messages.length === 0 || messages.length > ROWS_PER_STATEMENT) {
    throw new Error(`bus: outboxInsert takes 1..${ROWS_PER_STATEMENT} messages`);
  }
  checkOutgoing(topic, messages);
  const values: unknown[] = [];
  const rows = messages.map(({ key, value, headers }, i) => {
    values.push(
      value.id,
      topic,
      key,
      JSON.stringify(value),
      headers ? JSON.stringify(headers) : null,
    );
    const p = firstParam + i * 5;
    return `($${p}, $${p + 1}, $${p + 2}, $${p + 3}::jsonb, $${p + 4}::jsonb)`;
  });
  // Rows of one VALUES list get their seq in list order, which the relay publishes in.
  return {
    text: `INSERT INTO ${quoteSchema(schema)}."outbox_event" ("id", "topic", "key", "value", "headers")
       VALUES ${rows.join(', ')} ON CONFLICT ("id") DO NOTHING`,
    values,
  };
}

/**
 * A SELECT that notifies `schema`'s relays, its parameter numbered `param`: the main statement
 * after the CTEs that write. It returns one integer row, not pg_notify's void (which Prisma's raw
 * queries cannot read).
 */
export function outboxNotify(schema: string, param: number): SqlPart {
  return {
    text: `SELECT count(*)::int AS "notified" FROM (SELECT pg_notify($${param}, '')) AS "notify"`,
    values: [outboxChannel(schema)],
  };
}

/**
 * Records messages to publish in the caller's transaction (pass the transaction's client), so
 * they are published if and only if the state change commits. The event id is the row id: the
 * same event enqueued twice is stored once. Messages that break their topic's schema are refused
 * (InvalidEventError) before anything is written. One statement per 1,000 messages, which also
 * notifies the relays (Postgres folds a transaction's identical notifications into one).
 */
export async function enqueueOutbox(
  sql: Sql,
  schema: string,
  topic: string,
  messages: BusMessage[],
): Promise<void> {
  checkOutgoing(topic, messages);
  for (let start = 0; start < messages.length; start += ROWS_PER_STATEMENT) {
    const insert = outboxInsert(schema, topic, messages.slice(start, start + ROWS_PER_STATEMENT));
    const notify = outboxNotify(schema, insert.values.length + 1);
    await sql.query(`WITH "enqueued" AS (${insert.text}) ${notify.text}`, [
      ...insert.values,
      ...notify.values,
    ]);
  }
}

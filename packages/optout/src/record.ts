import { enqueueOutbox } from '@msg/bus';
import { Topics } from '@msg/contracts';
import type { Sql } from '@msg/db';
import type { OptOutMessage } from './opt-out-event.js';
import { applyOptOut } from './replica.js';

/**
 * What a producer of optouts.v1 does with a change, in its own transaction (pass the
 * transaction's client): applies it to its own replica at once — its next send already honours
 * it — and queues the event in its outbox for every other service. The replica's consumer later
 * reads the event back and changes nothing (same `at`).
 */
export async function recordOptOut(tx: Sql, schema: string, message: OptOutMessage): Promise<void> {
  await applyOptOut(tx, schema, message.value.payload);
  await enqueueOutbox(tx, schema, Topics.optOuts, [message]);
}

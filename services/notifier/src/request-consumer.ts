import type { Bus, Subscription } from '@msg/bus';
import { CALLBACK_REQUEST_EVENT, Topics } from '@msg/contracts';
import type { Logger } from '@msg/logger';
import type pg from 'pg';
import { parseCallbackRequest } from './callback-request.js';
import { insertCallback } from './callback-store.js';

export interface RequestConsumerOptions {
  bus: Bus;
  pool: pg.Pool;
  logger: Logger;
  groupId: string;
  horizonMs: number;
  /** Called after a callback is stored, so delivery need not wait for the next poll. */
  onStored(): void;
}

/**
 * Stores every callback requested on callbacks.v1. The handler returns only once the row is
 * committed, so the offset is committed only for durable callbacks; a redelivered event finds
 * its callbackId stored and changes nothing.
 */
export function subscribeToCallbackRequests({
  bus,
  pool,
  logger,
  groupId,
  horizonMs,
  onStored,
}: RequestConsumerOptions): Promise<Subscription> {
  const log = logger.child({ component: 'callback-requests' });
  return bus.subscribe({
    groupId,
    topics: [Topics.callbacks],
    // A new group reads what was requested before the notifier was first deployed.
    fromBeginning: true,
    handler: async (msg) => {
      if (msg.value.type !== CALLBACK_REQUEST_EVENT) return;
      const parsed = parseCallbackRequest(msg.value.payload);
      if ('problems' in parsed) {
        // Retrying cannot make it valid: say so loudly, then move on.
        log.error('undeliverable callback request skipped', {
          eventId: msg.value.id,
          partition: msg.partition,
          offset: msg.offset,
          problems: parsed.problems,
        });
        return;
      }
      if (await insertCallback(pool, parsed.request, horizonMs)) onStored();
    },
  });
}

import { type Bus, type Subscription, subscribeToEvents } from '@msg/bus';
import { batchEventCallback, type CallbackRequest, Topics } from '@msg/contracts';
import type pg from 'pg';
import { insertCallback } from './callback-store.js';

export interface RequestConsumerOptions {
  bus: Bus;
  pool: pg.Pool;
  /** The group of callbacks.v1; batch.events.v1 is read by `<groupId>.batch-events`. */
  groupId: string;
  horizonMs: number;
  /** Called after a callback is stored, so delivery need not wait for the next poll. */
  onStored(): void;
}

/** The group of batch.events.v1 beside the callbacks.v1 group `groupId`. */
export function batchEventsGroup(groupId: string): string {
  return `${groupId}.batch-events`;
}

/**
 * Stores every callback to deliver: those requested on callbacks.v1 and one per batch event on
 * batch.events.v1 (batchEventCallback). A handler returns only once the row is committed, so
 * offsets are committed only for durable callbacks; a redelivered event finds its callbackId
 * stored and changes nothing. The bus dead-letters events that break their topic's schema.
 */
export async function subscribeToCallbackRequests({
  bus,
  pool,
  groupId,
  horizonMs,
  onStored,
}: RequestConsumerOptions): Promise<Subscription[]> {
  async function store(request: CallbackRequest): Promise<void> {
    if (await insertCallback(pool, request, horizonMs)) onStored();
  }
  // A new group reads what was requested before the notifier was first deployed.
  return Promise.all([
    subscribeToEvents(bus, {
      topic: Topics.callbacks,
      groupId,
      fromBeginning: true,
      handler: (event) => store(event.payload),
    }),
    subscribeToEvents(bus, {
      topic: Topics.batchEvents,
      groupId: batchEventsGroup(groupId),
      fromBeginning: true,
      handler: (event) => store(batchEventCallback(event)),
    }),
  ]);
}

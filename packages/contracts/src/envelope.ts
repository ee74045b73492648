import { randomUUID } from 'node:crypto';

/** The common envelope of every event on the bus. `id` is unique per event; consumers dedupe on it. */
export interface EventEnvelope<T = unknown> {
  id: string;
  type: string;
  occurredAt: string;
  traceId?: string;
  accountId?: string;
  payload: T;
}

export function makeEvent<T>(
  type: string,
  payload: T,
  context: { accountId?: string; traceId?: string } = {},
): EventEnvelope<T> {
  return {
    id: randomUUID(),
    type,
    occurredAt: new Date().toISOString(),
    ...(context.traceId ? { traceId: context.traceId } : {}),
    ...(context.accountId ? { accountId: context.accountId } : {}),
    payload,
  };
}

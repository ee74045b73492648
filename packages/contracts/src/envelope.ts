import { randomUUID } from 'node:crypto';
import { z } from 'zod';

/**
 * The version of the payload schema an event was written with. It changes only when a payload
 * changes in a way old consumers cannot read (a field removed, renamed or retyped); adding an
 * optional field is not such a change. Events written before the field existed read as 1.
 */
export const SCHEMA_VERSION = 1;

/** The common envelope of every event on the bus. `id` is unique per event; consumers dedupe on it. */
export interface EventEnvelope<T = unknown> {
  id: string;
  type: string;
  /** Absent on events written before it existed; read as 1. */
  schemaVersion?: number;
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
    schemaVersion: SCHEMA_VERSION,
    occurredAt: new Date().toISOString(),
    ...(context.traceId ? { traceId: context.traceId } : {}),
    ...(context.accountId ? { accountId: context.accountId } : {}),
    payload,
  };
}

/**
 * The runtime schema of one topic's events: the envelope around `payload`, with `type` one of
 * `types`. Unknown envelope members are dropped, so a newer producer may add some.
 */
export function envelopeSchema<const Type extends string, Payload extends z.ZodType>(
  types: readonly [Type, ...Type[]],
  payload: Payload,
) {
  return z.object({
    id: z.string().min(1).describe('Unique per event; consumers dedupe on it.'),
    type: z.enum(types).describe('What happened; the payload schema follows from it.'),
    schemaVersion: z
      .literal(SCHEMA_VERSION)
      .default(SCHEMA_VERSION)
      .describe('Version of the payload schema; absent means 1.'),
    occurredAt: z.iso.datetime({ offset: true }).describe('When it happened (ISO 8601).'),
    traceId: z.string().optional().describe('Trace of the request that caused it.'),
    accountId: z.string().optional().describe('The account it concerns.'),
    payload,
  });
}

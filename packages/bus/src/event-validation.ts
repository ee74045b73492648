import { type EventEnvelope, eventSchemaOf } from '@msg/contracts';
import type { BusMessage } from './types.js';

/**
 * The schema of a topic's events, undefined for a topic without one. The buses take the
 * contracts' own by default; tests map their uniquely named topics to a real topic's.
 */
export type EventSchemaLookup = typeof eventSchemaOf;

/** An event that breaks its topic's schema (packages/contracts): retrying can never fix it. */
export class InvalidEventError extends Error {
  override name = 'InvalidEventError';
}

/** The schema's complaints by path only: the values themselves may be phone numbers or text. */
function problems(issues: readonly { path: PropertyKey[]; message: string }[]): string {
  return issues
    .slice(0, 5)
    .map((issue) => `${issue.path.map(String).join('.') || '(event)'}: ${issue.message}`)
    .join('; ');
}

/**
 * The event as its topic's contract reads it (defaults filled in, such as schemaVersion 1 on
 * events written before it existed, unknown members dropped); throws InvalidEventError when it
 * breaks the contract. Topics without a contract (tests' own, deadletter.v1) pass as they are.
 */
export function checkedEvent(
  topic: string,
  value: unknown,
  schemaOf: EventSchemaLookup = eventSchemaOf,
): EventEnvelope {
  const schema = schemaOf(topic);
  if (!schema) return value as EventEnvelope;
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data as EventEnvelope;
  const id = typeof value === 'object' && value !== null && 'id' in value ? value.id : undefined;
  throw new InvalidEventError(
    `event ${String(id)} does not match the schema of ${topic}: ${problems(parsed.error.issues)}`,
  );
}

/** Refuses the whole publish (or outbox insert) when any of the messages breaks its schema. */
export function checkOutgoing(
  topic: string,
  messages: readonly BusMessage[],
  schemaOf: EventSchemaLookup = eventSchemaOf,
): void {
  for (const { value } of messages) checkedEvent(topic, value, schemaOf);
}

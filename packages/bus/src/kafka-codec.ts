import type { EventEnvelope } from '@msg/contracts';
import type { IHeaders, Message } from 'kafkajs';
import type { BusMessage } from './types.js';

/** On the wire: the key as a string, the value as the JSON of the envelope, headers as strings. */
export function encodeMessage({ key, value, headers }: BusMessage): Message {
  return { key, value: JSON.stringify(value), headers: headers ?? {} };
}

export function decodeHeaders(headers: IHeaders | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, raw] of Object.entries(headers ?? {})) {
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (value !== undefined) out[name] = value.toString();
  }
  return out;
}

export class UndecodableMessageError extends Error {
  override name = 'UndecodableMessageError';
}

/** Parses an envelope; anything else is a poison message (it can never be handled). */
export function decodeEnvelope(value: Buffer | null): EventEnvelope {
  if (value === null) throw new UndecodableMessageError('message has no value');
  let parsed: unknown;
  try {
    parsed = JSON.parse(value.toString('utf8'));
  } catch {
    throw new UndecodableMessageError('message value is not JSON');
  }
  if (!isEnvelope(parsed)) {
    throw new UndecodableMessageError('message value is not an event envelope');
  }
  return parsed;
}

function isEnvelope(value: unknown): value is EventEnvelope {
  return (
    typeof value === 'object' &&
    value !== null &&
    'id' in value &&
    typeof value.id === 'string' &&
    'type' in value &&
    typeof value.type === 'string' &&
    'payload' in value
  );
}

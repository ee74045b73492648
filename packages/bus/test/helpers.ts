import { randomUUID } from 'node:crypto';
import { type EventEnvelope, eventSchemaOf, makeEvent } from '@msg/contracts';
import { createLogger, type Logger } from '@msg/logger';
import { vi } from 'vitest';
import type { BusMessage, ConsumedMessage, EventSchemaLookup } from '../src/index.js';

export const testKafkaBrokers = (process.env.TEST_KAFKA_BROKERS ?? '127.0.0.1:9092').split(',');
export const testDatabaseUrl =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Bus warnings (handler retries, dead letters) are expected in these tests: keep errors only. */
export const quietLogger = (): Logger => createLogger({ service: 'bus-test', level: 'error' });

/** Unique per test and per run, so runs against a shared broker never see each other. */
export const uniqueName = (prefix: string) => `${prefix}.${randomUUID().slice(0, 8)}`;

export type TestPayload = { n: number; note?: string };

export function message(key: string, n: number, headers?: Record<string, string>): BusMessage {
  return {
    key,
    value: makeEvent<TestPayload>('test.event', { n }),
    ...(headers ? { headers } : {}),
  };
}

export function payloadOf(msg: ConsumedMessage): TestPayload {
  const value: EventEnvelope = msg.value;
  const payload = value.payload;
  if (typeof payload !== 'object' || payload === null || !('n' in payload)) {
    throw new Error('not a test payload');
  }
  return { n: Number(payload.n) };
}

/** Polls until `check` stops throwing (an expect inside it), or rethrows its last error. */
export async function eventually(check: () => void, timeoutMs = 20_000): Promise<void> {
  await vi.waitFor(check, { timeout: timeoutMs, interval: 50 });
}

/**
 * The buses under test read a topic named `<real topic>.<8 hex>` (uniqueName(Topics.x)) as that
 * real topic for its schema, so contract tests on the shared broker never touch the real topics.
 */
export const testSchemaOf: EventSchemaLookup = (topic) =>
  eventSchemaOf(topic.replace(/\.[0-9a-f]{8}$/, ''));

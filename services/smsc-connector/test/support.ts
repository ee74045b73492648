import { randomBytes, randomUUID } from 'node:crypto';
import type { Bus } from '@msg/bus';
import { createKafkaBus } from '@msg/bus';
import {
  makeEvent,
  SMS_OUTBOUND_EVENT,
  type SmsInbound,
  type SmsOutbound,
  type SmsStatus,
  Topics,
} from '@msg/contracts';
import { createPool } from '@msg/db';
import type { Logger } from '@msg/logger';
import type pg from 'pg';
import { expect, vi } from 'vitest';
import { loadSmscConnectorConfig } from '../src/config.js';
import { type SmscConnector, startSmscConnector } from '../src/service.js';
import type { DeliverSm, SmppBind } from '../src/smpp-bind.js';

/**
 * Polls until `check` stops throwing (an expect inside it) and answers what it returned, or
 * rethrows its last error.
 */
export async function eventually<T>(check: () => T | Promise<T>, timeoutMs = 15_000): Promise<T> {
  return await vi.waitFor(check, { timeout: timeoutMs, interval: 25 });
}

let numberSeq = 0;

/** A recipient no other test uses, so the simulator's submits can be told apart by it. */
export function uniqueRecipient(): string {
  numberSeq++;
  return `+4673${String(process.pid % 1000).padStart(3, '0')}${String(numberSeq).padStart(4, '0')}`;
}

export function outbound(overrides: Partial<SmsOutbound> = {}): SmsOutbound {
  return {
    messageId: randomUUID(),
    accountId: 'acct-1',
    source: 'sms',
    from: 'Acme',
    to: uniqueRecipient(),
    text: 'Hello',
    encoding: 'GSM-7',
    parts: 1,
    deliveryReport: true,
    ...overrides,
  };
}

/** Publishes as the producing services do: keyed by account. */
export async function publishOutbound(bus: Bus, ...messages: SmsOutbound[]): Promise<void> {
  await bus.publish(
    Topics.smsOutbound,
    messages.map((message) => ({
      key: message.accountId,
      value: makeEvent(SMS_OUTBOUND_EVENT, message, { accountId: message.accountId }),
    })),
  );
}

/** Collects sms.status.v1 and sms.inbound.v1 in a group of its own. */
export async function collectEvents(bus: Bus, groupId: string) {
  const statuses: SmsStatus[] = [];
  const inbound: SmsInbound[] = [];
  const subscriptions = await Promise.all([
    bus.subscribe({
      groupId: `${groupId}-status`,
      topics: [Topics.smsStatus],
      handler: async (msg) => {
        if (isStatus(msg.value.payload)) statuses.push(msg.value.payload);
      },
    }),
    bus.subscribe({
      groupId: `${groupId}-inbound`,
      topics: [Topics.smsInbound],
      handler: async (msg) => {
        if (isInbound(msg.value.payload)) inbound.push(msg.value.payload);
      },
    }),
  ]);
  return {
    statuses,
    inbound,
    of: (messageId: string) => statuses.filter((status) => status.messageId === messageId),
    stop: () => Promise.all(subscriptions.map((s) => s.stop())),
  };
}

function isStatus(payload: unknown): payload is SmsStatus {
  return (
    typeof payload === 'object' && payload !== null && 'state' in payload && 'messageId' in payload
  );
}

function isInbound(payload: unknown): payload is SmsInbound {
  return typeof payload === 'object' && payload !== null && 'receivedAt' in payload;
}

/** The octets of a deliver_sm (SMPP 3.4 §4.6.1), for feeding the deliver_sm handler directly. */
export function deliverSmOctets(fields: {
  /** A string is written as ASCII digits; a Buffer as is (GSM-7 septets for TON 5). */
  sourceAddr: string | Buffer;
  sourceTon?: number;
  destinationAddr: string;
  esmClass: number;
  dataCoding: number;
  shortMessage: Buffer;
  tlvs?: Buffer;
}): Buffer {
  const cstr = (s: string | Buffer) =>
    Buffer.concat([typeof s === 'string' ? Buffer.from(s, 'latin1') : s, Buffer.from([0])]);
  const body = Buffer.concat([
    cstr(''),
    Buffer.from([fields.sourceTon ?? 1, fields.sourceTon === 5 ? 0 : 1]),
    cstr(fields.sourceAddr),
    Buffer.from([1, 1]),
    cstr(fields.destinationAddr),
    Buffer.from([fields.esmClass, 0, 0]),
    cstr(''),
    cstr(''),
    Buffer.from([0, 0, fields.dataCoding, 0, fields.shortMessage.length]),
    fields.shortMessage,
    fields.tlvs ?? Buffer.alloc(0),
  ]);
  const header = Buffer.alloc(16);
  header.writeUInt32BE(16 + body.length, 0);
  header.writeUInt32BE(0x05, 4);
  return Buffer.concat([header, body]);
}

/** A bind without a session, bound unless told otherwise, that accepts every submit without an id. */
export function fakeBind(name: string, overrides: Partial<SmppBind> = {}): SmppBind {
  return {
    name,
    scope: `${name}@test`,
    isBound: true,
    windowInUse: 0,
    submit: async () => ({ status: 0, messageId: null }),
    start: () => {},
    stop: async () => {},
    ...overrides,
  };
}

/** A deliver_sm as a bind hands it over: its octets and the fields the `smpp` package parsed. */
export function fakeDeliverSm(octets: Buffer, fields: Record<string, unknown>): DeliverSm {
  return {
    octets,
    pdu: {
      command: 'deliver_sm',
      command_status: 0,
      sequence_number: 1,
      ...fields,
      response: () => {
        throw new Error('not used');
      },
    },
  };
}

/**
 * A database of its own on the real Postgres server (`TEST_DATABASE_URL`; the connector's schema
 * name is fixed, so runs cannot share one), dropped by `close()`.
 */
export async function startScratchDatabase(name: string, poolSize = 4) {
  const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const databaseName = `msg_${name.replaceAll('-', '_')}_${randomBytes(4).toString('hex')}`;
  const admin: pg.Pool = createPool({ url: adminUrl, max: 1, applicationName: `${name}-admin` });
  await admin.query(`CREATE DATABASE "${databaseName}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${databaseName}`;
  const pool = createPool({ url: url.href, max: poolSize, applicationName: name });
  return {
    pool,
    async close() {
      await pool.end();
      await admin.query(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`);
      await admin.end();
    },
  };
}

type ConnectorDeps = { pool: pg.Pool; bus: Bus; logger: Logger };

/**
 * Starts the connector on `deps` with a test's settings over quiet defaults: errors only, and a
 * consumer group of its own, so it sees only what is published after it.
 */
export function startTestConnector(
  deps: ConnectorDeps,
  env: Record<string, string>,
): Promise<SmscConnector> {
  return startSmscConnector(
    loadSmscConnectorConfig({
      LOG_LEVEL: 'error',
      SMSC_CONSUMER_GROUP: `smsc-connector-${randomBytes(4).toString('hex')}`,
      ...env,
    }),
    deps,
  );
}

/** startTestConnector, resolved once it is bound; a connector that does not bind in time is stopped. */
export async function startBoundConnector(
  deps: ConnectorDeps,
  env: Record<string, string>,
  boundTimeoutMs?: number,
): Promise<SmscConnector> {
  const connector = await startTestConnector(deps, env);
  try {
    await eventually(() => expect(connector.isBound()).toBe(true), boundTimeoutMs);
  } catch (error) {
    await connector.stop();
    throw error;
  }
  return connector;
}

/**
 * The deployed shape for an integration test: a scratch database on the real Postgres server, a
 * bus on the real Kafka broker (`TEST_KAFKA_BROKERS`), the connector bound to `smscBinds` with
 * consumer groups unique to the run (the broker keeps earlier runs' events), and the sms.status.v1
 * and sms.inbound.v1 events from then on. `stop()` stops them all.
 */
export async function startConnectorOnPostgresAndKafka(
  name: string,
  logger: Logger,
  smscBinds: string,
  boundTimeoutMs?: number,
) {
  const brokers = (process.env.TEST_KAFKA_BROKERS ?? '127.0.0.1:9092').split(',');
  const run = randomBytes(4).toString('hex');
  const database = await startScratchDatabase(name);
  const bus = createKafkaBus({ brokers, clientId: `${name}-${run}`, logger });
  const started: { stop(): Promise<unknown> }[] = [];
  const stop = async () => {
    for (const part of started.reverse()) await part.stop();
    await bus.close();
    await database.close();
  };
  try {
    const connector = await startBoundConnector(
      { pool: database.pool, bus, logger },
      { SMSC_BINDS: smscBinds, OUTBOX_POLL_MS: '50', SMSC_CONSUMER_GROUP: `${name}-${run}` },
      boundTimeoutMs,
    );
    started.push(connector);
    const events = await collectEvents(bus, `${name}-events-${run}`);
    started.push(events);
    return { bus, connector, events, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

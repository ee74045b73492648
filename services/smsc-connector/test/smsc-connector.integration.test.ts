import { randomBytes } from 'node:crypto';
import { type Bus, createKafkaBus } from '@msg/bus';
import { createPool } from '@msg/db';
import { createLogger } from '@msg/logger';
import { type SmscSimulator, startSmscSimulator } from '@msg/smsc-simulator';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSmscConnectorConfig } from '../src/config.js';
import { type SmscConnector, startSmscConnector } from '../src/service.js';
import { collectEvents, eventually, outbound, publishOutbound } from './support.js';

const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const brokers = (process.env.TEST_KAFKA_BROKERS ?? '127.0.0.1:9092').split(',');
const logger = createLogger({ service: 'smsc-connector-it', level: 'error' });
const run = randomBytes(4).toString('hex');
const databaseName = `msg_smsc_connector_test_${run}`;

let admin: pg.Pool;
let pool: pg.Pool;
let bus: Bus;
let smsc: SmscSimulator;
let connector: SmscConnector;
let events: Awaited<ReturnType<typeof collectEvents>>;

beforeAll(async () => {
  // A scratch database per run: the schema name "smsc_connector" is fixed.
  admin = createPool({ url: adminUrl, max: 1, applicationName: 'smsc-connector-it-admin' });
  await admin.query(`CREATE DATABASE "${databaseName}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${databaseName}`;
  pool = createPool({ url: url.href, max: 4, applicationName: 'smsc-connector-it' });
  bus = createKafkaBus({ brokers, clientId: `smsc-connector-it-${run}`, logger });
  smsc = await startSmscSimulator({ receiptDelayMs: 50 });
  connector = await startSmscConnector(
    loadSmscConnectorConfig({
      LOG_LEVEL: 'error',
      SMSC_BINDS: `smpp://smsc:smsc@127.0.0.1:${smsc.port}?name=a`,
      OUTBOX_POLL_MS: '50',
      // A group of its own per run: the shared broker keeps outbound events of earlier runs.
      SMSC_CONSUMER_GROUP: `smsc-connector-it-${run}`,
    }),
    { pool, bus, logger },
  );
  events = await collectEvents(bus, `smsc-connector-it-events-${run}`);
  await eventually(() => expect(connector.isBound()).toBe(true));
}, 60_000);

afterAll(async () => {
  await events?.stop();
  await connector?.stop();
  await smsc?.close();
  await bus?.close();
  await pool?.end();
  await admin?.query(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`);
  await admin?.end();
});

describe('smsc-connector on Postgres and Kafka', () => {
  it('when an outbound event is published, then the SMSC gets it and delivered arrives on sms.status.v1', async () => {
    const message = outbound({ text: 'Integration €' });

    await publishOutbound(bus, message);

    await eventually(
      () =>
        expect(events.of(message.messageId).map((status) => status.state)).toEqual([
          'submitted',
          'delivered',
        ]),
      30_000,
    );
    const submits = smsc.submits().filter((s) => `+${s.destinationAddr}` === message.to);
    expect(submits).toHaveLength(1);
    expect(submits[0]?.text).toBe('Integration €');
    expect(events.of(message.messageId)[1]?.smscMessageIds).toEqual([submits[0]?.messageId]);
  }, 40_000);
});

import { randomBytes } from 'node:crypto';
import { createInProcessBus } from '@msg/bus';
import { Topics } from '@msg/contracts';
import { createPool } from '@msg/db';
import { createLogger } from '@msg/logger';
import { type SmscSimulator, startSmscSimulator } from '@msg/smsc-simulator';
import { createScratchDatabase, type ScratchDatabase } from '@msg/testing';
import type pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadSmscConnectorConfig } from '../src/config.js';
import { SMSC_CONNECTOR_SCHEMA as SCHEMA } from '../src/schema.js';
import { type SmscConnector, startSmscConnector } from '../src/service.js';
import { collectEvents, eventually } from './support.js';

/**
 * An inbound SMS is acknowledged to the SMS centre (deliver_sm_resp OK) only once it is stored:
 * the connector's outbox row holding its sms.inbound.v1 event is committed. Real Postgres, so a
 * table lock can hold the store back and a test can see the answer wait for it.
 */

const logger = createLogger({ service: 'smsc-connector-test', level: 'error' });
let scratch: ScratchDatabase;
let pool: pg.Pool;
let bus: ReturnType<typeof createInProcessBus>;
let smsc: SmscSimulator;
let connector: SmscConnector;
let events: Awaited<ReturnType<typeof collectEvents>>;

beforeAll(async () => {
  scratch = await createScratchDatabase('smsc_connector_ack');
  pool = createPool({ url: scratch.url, max: 6 });
  bus = createInProcessBus({ logger });
  await bus.ensureTopics([{ topic: Topics.smsInbound }, { topic: Topics.smsStatus }]);
  smsc = await startSmscSimulator({});
  connector = await startSmscConnector(
    loadSmscConnectorConfig({
      LOG_LEVEL: 'error',
      SMSC_BINDS: `smpp://smsc:smsc@127.0.0.1:${smsc.port}?name=a&window=10&tps=1000`,
      SMPP_RECONNECT_MIN_MS: '50',
      SMPP_RECONNECT_MAX_MS: '200',
      OUTBOX_POLL_MS: '20',
      SMSC_CONSUMER_GROUP: `smsc-connector-${randomBytes(4).toString('hex')}`,
    }),
    { pool, bus, logger },
  );
  await eventually(() => expect(connector.isBound()).toBe(true));
  events = await collectEvents(bus, 'ack-test');
}, 60_000);

afterAll(async () => {
  await events?.stop();
  await connector?.stop();
  await smsc?.close();
  await bus?.close();
  await pool?.end();
  await scratch?.drop();
});

const outbox = `"${SCHEMA}"."outbox_event"`;

it('when storing the inbound SMS waits, then the SMS centre gets no answer until it is committed', async () => {
  const before = smsc.stats().inboundAcknowledged;
  const holder = await pool.connect();
  try {
    await holder.query('BEGIN');
    await holder.query(`LOCK TABLE ${outbox} IN ACCESS EXCLUSIVE MODE`);

    smsc.sendInbound({ from: '+46701112299', to: '+46701740605', text: 'held' });

    // The handler's insert is queued behind the lock (the relay's reads may wait too): the SMS
    // has arrived but is not stored yet...
    await eventually(async () => {
      const { rows } = await pool.query(
        `SELECT 1 FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock'
            AND query ILIKE '%INSERT INTO%outbox_event%'`,
      );
      expect(rows.length).toBeGreaterThan(0);
    });
    // ...and so not acknowledged.
    expect(smsc.stats().inboundAcknowledged).toBe(before);
    await holder.query('COMMIT');
  } finally {
    holder.release();
  }

  await eventually(() => expect(smsc.stats().inboundAcknowledged).toBe(before + 1));
  await eventually(() =>
    expect(events.inbound.filter((i) => i.text === 'held')).toEqual([
      expect.objectContaining({ from: '+46701112299', to: '+46701740605' }),
    ]),
  );
});

it('when storing the inbound SMS fails, then the SMS centre gets an error, sends it again, and it is stored then', async () => {
  const acknowledged = smsc.stats().inboundAcknowledged;
  const refused = smsc.stats().inboundRefused;
  await pool.query(`ALTER TABLE ${outbox} RENAME TO "outbox_event_away"`);
  try {
    smsc.sendInbound({ from: '+46701112298', to: '+46701740605', text: 'refused first' });

    await eventually(() => expect(smsc.stats().inboundRefused).toBeGreaterThan(refused));
    expect(smsc.stats().inboundAcknowledged).toBe(acknowledged);
    expect(events.inbound.filter((i) => i.text === 'refused first')).toEqual([]);
  } finally {
    await pool.query(`ALTER TABLE "${SCHEMA}"."outbox_event_away" RENAME TO "outbox_event"`);
  }

  // The SMS centre's resend (a second later) is stored and acknowledged.
  await eventually(() => expect(smsc.stats().inboundAcknowledged).toBe(acknowledged + 1));
  await eventually(() =>
    expect(events.inbound.filter((i) => i.text === 'refused first')).toHaveLength(1),
  );
});

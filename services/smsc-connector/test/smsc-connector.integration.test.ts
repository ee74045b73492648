import type { Bus } from '@msg/bus';
import { createLogger } from '@msg/logger';
import { type SmscSimulator, startSmscSimulator } from '@msg/smsc-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSmscConnectorConfig } from '../src/config.js';
import { type SmscConnector, startSmscConnector } from '../src/service.js';
import {
  collectEvents,
  eventually,
  outbound,
  publishOutbound,
  startRealInfrastructure,
} from './support.js';

const logger = createLogger({ service: 'smsc-connector-it', level: 'error' });

let infrastructure: Awaited<ReturnType<typeof startRealInfrastructure>>;
let bus: Bus;
let smsc: SmscSimulator;
let connector: SmscConnector;
let events: Awaited<ReturnType<typeof collectEvents>>;

beforeAll(async () => {
  infrastructure = await startRealInfrastructure('smsc-connector-it', logger);
  const { pool, run } = infrastructure;
  bus = infrastructure.bus;
  smsc = await startSmscSimulator({ receiptDelayMs: 50 });
  connector = await startSmscConnector(
    loadSmscConnectorConfig({
      LOG_LEVEL: 'error',
      SMSC_BINDS: `smpp://smsc:smsc@127.0.0.1:${smsc.port}?name=a`,
      OUTBOX_POLL_MS: '50',
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
  await infrastructure?.close();
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

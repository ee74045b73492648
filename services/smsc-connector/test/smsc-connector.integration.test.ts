import type { Bus } from '@msg/bus';
import { createLogger } from '@msg/logger';
import { type SmscSimulator, startSmscSimulator } from '@msg/smsc-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  eventually,
  outbound,
  publishOutbound,
  startConnectorOnPostgresAndKafka,
} from './support.js';

const logger = createLogger({ service: 'smsc-connector-it', level: 'error' });

let smsc: SmscSimulator;
let platform: Awaited<ReturnType<typeof startConnectorOnPostgresAndKafka>>;
let bus: Bus;
let events: typeof platform.events;

beforeAll(async () => {
  smsc = await startSmscSimulator({ receiptDelayMs: 50 });
  platform = await startConnectorOnPostgresAndKafka(
    'smsc-connector-it',
    logger,
    `smpp://smsc:smsc@127.0.0.1:${smsc.port}?name=a`,
  );
  ({ bus, events } = platform);
}, 60_000);

afterAll(async () => {
  await platform?.stop();
  await smsc?.close();
});

describe('smsc-connector on Postgres and Kafka', () => {
  it('when an outbound event is published, then the SMSC gets it and delivered arrives on sms.status.v1', async () => {
    const message = outbound({ text: 'Integration €' });

    await publishOutbound(bus, message);

    const submit = await eventually(() => {
      const found = smsc.submits().filter((s) => `+${s.destinationAddr}` === message.to);
      expect(found).toHaveLength(1);
      return found[0];
    }, 30_000);
    expect(submit?.text).toBe('Integration €');
    // Only statuses naming this simulator's id: on a shared broker another run's connector may
    // consume the same outbound event and publish statuses from its own SMSC.
    const fromThisSmsc = () =>
      events
        .of(message.messageId)
        .filter((status) => submit && status.smscMessageIds?.includes(submit.messageId));
    await eventually(
      () =>
        expect(fromThisSmsc().map((status) => status.state)).toEqual(['submitted', 'delivered']),
      30_000,
    );
    expect(fromThisSmsc()[1]?.smscMessageIds).toEqual([submit?.messageId]);
    expect(smsc.submits().filter((s) => `+${s.destinationAddr}` === message.to)).toHaveLength(1);
  }, 40_000);
});

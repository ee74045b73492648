import { randomBytes } from 'node:crypto';
import { createRateLimiter } from '@msg/auth';
import { createInProcessBus } from '@msg/bus';
import { eventContracts, makeEvent, SMS_OUTBOUND_EVENT, Topics } from '@msg/contracts';
import { createPool, type EmbeddedPostgres, startEmbeddedPostgres } from '@msg/db';
import { createLogger } from '@msg/logger';
import { type SmscSimulator, startSmscSimulator } from '@msg/smsc-simulator';
import type pg from 'pg';
import { Registry } from 'prom-client';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createBindPool } from '../src/bind-pool.js';
import { createDeliverHandler } from '../src/deliver-handler.js';
import { createConnectorMetrics } from '../src/metrics.js';
import { createOutboundHandler } from '../src/outbound-handler.js';
import type { SmppBind } from '../src/smpp-bind.js';
import {
  collectEvents,
  deliverSmOctets,
  eventually,
  fakeBind,
  fakeDeliverSm,
  outbound,
  publishOutbound,
  startBoundConnector,
  startTestConnector,
} from './support.js';

const logger = createLogger({ service: 'smsc-connector-test', level: 'error' });

let database: EmbeddedPostgres;
let pool: pg.Pool;
let bus: ReturnType<typeof createInProcessBus>;
let events: Awaited<ReturnType<typeof collectEvents>>;
const cleanup: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  database = await startEmbeddedPostgres({});
  pool = createPool({ url: database.url, ...database.poolOptions });
  bus = createInProcessBus({ logger });
  await bus.ensureTopics([
    { topic: Topics.smsOutbound },
    { topic: Topics.smsStatus },
    { topic: Topics.smsInbound },
  ]);
  events = await collectEvents(bus, 'test-events');
}, 60_000);

afterAll(async () => {
  await events?.stop();
  await bus?.close();
  await pool?.end();
  await database?.stop();
});

afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function simulator(options: Parameters<typeof startSmscSimulator>[0] = {}) {
  const smsc = await startSmscSimulator({ receiptDelayMs: 50, ...options });
  cleanup.push(() => smsc.close());
  return smsc;
}

/** A connector with its own consumer group, so it sees only what a test publishes after it. */
async function connector(smsc: SmscSimulator, env: Record<string, string> = {}) {
  const started = await startBoundConnector(
    { pool, bus, logger },
    {
      SMSC_BINDS: `smpp://smsc:smsc@127.0.0.1:${smsc.port}?name=a&window=10&tps=1000`,
      SMPP_RECONNECT_MIN_MS: '50',
      SMPP_RECONNECT_MAX_MS: '200',
      SMPP_RESPONSE_TIMEOUT_MS: '2000',
      THROTTLE_BACKOFF_MS: '20',
      OUTBOX_POLL_MS: '20',
      ...env,
    },
  );
  cleanup.push(() => started.stop());
  return started;
}

/** The outbound handler on its own, submitting through `bind` (not the connector's binds). */
const directOutboundHandler = (
  bind: SmppBind,
  metrics = createConnectorMetrics(new Registry(), () => []),
) =>
  createOutboundHandler({
    pool,
    binds: createBindPool([bind]),
    pacers: new Map(),
    accountLimiter: createRateLimiter(),
    defaultAccountTps: 100,
    metrics,
    logger,
    signal: new AbortController().signal,
    receiptWait: { defaultValidityMinutes: 2880, graceMinutes: 60 },
  });

const submitsTo = (smsc: SmscSimulator, to: string) =>
  smsc.submits().filter((submit) => `+${submit.destinationAddr}` === to);

describe('outbound SMS', () => {
  it('when a GSM-7 text is published, then one submit_sm carries its septets and submitted then delivered are published', async () => {
    const smsc = await simulator();
    await connector(smsc);
    const message = outbound({ text: 'Pris 5€ idag' });

    await publishOutbound(bus, message);

    await eventually(() =>
      expect(events.of(message.messageId).map((s) => s.state)).toEqual(['submitted', 'delivered']),
    );
    const [submit] = submitsTo(smsc, message.to);
    expect(submitsTo(smsc, message.to)).toHaveLength(1);
    expect(submit).toMatchObject({
      dataCoding: 0,
      esmClass: 0,
      registeredDelivery: 1,
      sourceAddr: 'Acme',
      sourceAddrTon: 5,
      destAddrTon: 1,
      destAddrNpi: 1,
      text: 'Pris 5€ idag',
    });
    expect(submit?.shortMessageHex).toBe(
      Buffer.from('Pris 5\x1b\x65 idag', 'latin1').toString('hex'),
    );
    const [submitted, delivered] = events.of(message.messageId);
    expect(submitted?.smscMessageIds).toEqual([submit?.messageId]);
    expect(delivered).toMatchObject({
      state: 'delivered',
      smscMessageIds: [submit?.messageId],
      parts: 1,
    });
  });

  it('when the sender is alphanumeric with Å, then source_addr carries its GSM-7 septets (TON 5), not Latin-1', async () => {
    const smsc = await simulator();
    await connector(smsc);
    const message = outbound({ from: 'Åsa Ödlund' });

    await publishOutbound(bus, message);

    await eventually(() =>
      expect(events.of(message.messageId).map((s) => s.state)).toEqual(['submitted', 'delivered']),
    );
    const [submit] = submitsTo(smsc, message.to);
    expect(submit).toMatchObject({ sourceAddrTon: 5, sourceAddrNpi: 0 });
    // The simulator reads the field as Latin-1, so each octet is one character: Å 0E, Ö 5C.
    expect(Buffer.from(submit?.sourceAddr ?? '', 'latin1').toString('hex')).toBe(
      '0e7361205c646c756e64',
    );
  });

  it('when an alphanumeric sender holds @ (septet 0, the end of a C-octet string), then the message fails by name and nothing is submitted', async () => {
    const smsc = await simulator();
    await connector(smsc);
    const message = outbound({ from: 'a@b' });

    await publishOutbound(bus, message);

    await eventually(() => expect(events.of(message.messageId)).toHaveLength(1));
    expect(events.of(message.messageId)[0]).toMatchObject({
      state: 'failed',
      error: { description: expect.stringContaining('message not submittable') },
    });
    expect(submitsTo(smsc, message.to)).toEqual([]);
  });

  it('when a 200-character GSM-7 text is published, then two concatenated parts go out and one delivered follows both receipts', async () => {
    const smsc = await simulator();
    await connector(smsc);
    const text = 'abcdefghij'.repeat(20);
    const message = outbound({ text, parts: 2 });

    await publishOutbound(bus, message);

    await eventually(() =>
      expect(events.of(message.messageId).map((s) => s.state)).toEqual(['submitted', 'delivered']),
    );
    const parts = submitsTo(smsc, message.to);
    expect(parts).toHaveLength(2);
    expect(parts.map((part) => part.esmClass)).toEqual([0x40, 0x40]);
    const [one, two] = parts;
    expect(one?.concat).toMatchObject({ total: 2, seq: 1, refBits: 8 });
    expect(two?.concat).toMatchObject({ total: 2, seq: 2, ref: one?.concat?.ref });
    expect(parts.map((part) => part.text).join('')).toBe(text);
    expect(events.of(message.messageId)[1]?.smscMessageIds).toEqual(parts.map((p) => p.messageId));
  });

  it('when the text needs UCS-2, then it is submitted with data_coding 8', async () => {
    const smsc = await simulator();
    await connector(smsc);
    const message = outbound({ text: 'Привет 👋', encoding: 'UCS-2' });

    await publishOutbound(bus, message);

    await eventually(() => expect(submitsTo(smsc, message.to)).toHaveLength(1));
    expect(submitsTo(smsc, message.to)[0]).toMatchObject({ dataCoding: 8, text: 'Привет 👋' });
  });

  it('when the receipt says UNDELIV, then failed is published with the receipt stat', async () => {
    const smsc = await simulator({ rules: '*=UNDELIV' });
    await connector(smsc);
    const message = outbound();

    await publishOutbound(bus, message);

    await eventually(() =>
      expect(events.of(message.messageId).map((s) => s.state)).toEqual(['submitted', 'failed']),
    );
    expect(events.of(message.messageId)[1]?.error).toMatchObject({
      receiptStat: 'UNDELIV',
      receiptError: '001',
    });
  });

  it('when the SMSC throttles, then the refused parts are retried and every message is submitted once', async () => {
    const smsc = await simulator({ throttlePerSecond: 10 });
    await connector(smsc);
    const messages = Array.from({ length: 25 }, () => outbound({ deliveryReport: false }));

    await publishOutbound(bus, ...messages);

    await eventually(
      () => expect(messages.filter((m) => events.of(m.messageId).length > 0)).toHaveLength(25),
      20_000,
    );
    expect(smsc.stats().throttled).toBeGreaterThan(0);
    for (const message of messages) {
      expect(submitsTo(smsc, message.to)).toHaveLength(1);
      expect(events.of(message.messageId).map((s) => s.state)).toEqual(['submitted']);
    }
  }, 30_000);

  it('when the SMSC queue is full for a while, then the message waits and is submitted once it drains', async () => {
    const smsc = await simulator({ queueFull: true });
    await connector(smsc);
    const message = outbound({ deliveryReport: false });

    await publishOutbound(bus, message);
    await eventually(() => expect(smsc.stats().queueFull).toBeGreaterThan(1));
    smsc.setThrottle({ perSecond: null, queueFull: false });

    await eventually(() =>
      expect(events.of(message.messageId).map((s) => s.state)).toEqual(['submitted']),
    );
    expect(submitsTo(smsc, message.to)).toHaveLength(1);
  });

  it('when the same message is published again, then it is not submitted twice', async () => {
    const smsc = await simulator();
    await connector(smsc);
    const message = outbound({ deliveryReport: false });

    await publishOutbound(bus, message);
    await eventually(() => expect(events.of(message.messageId)).toHaveLength(1));
    await publishOutbound(bus, message);
    const marker = outbound({ deliveryReport: false });
    await publishOutbound(bus, marker);
    await eventually(() => expect(events.of(marker.messageId)).toHaveLength(1));

    expect(submitsTo(smsc, message.to)).toHaveLength(1);
    expect(events.of(message.messageId)).toHaveLength(1);
  });

  it('when receipts arrive as fast as the submit_sm_resp, then none is lost and every message is delivered', async () => {
    const smsc = await simulator({ receiptDelayMs: 0 });
    await connector(smsc);
    const messages = Array.from({ length: 20 }, () => outbound());

    await publishOutbound(bus, ...messages);

    await eventually(() => {
      for (const message of messages) {
        expect(events.of(message.messageId).map((s) => s.state)).toEqual([
          'submitted',
          'delivered',
        ]);
      }
    }, 20_000);
    const { rows } = await pool.query(
      'SELECT count(*)::int AS n FROM "smsc_connector"."orphan_receipt"',
    );
    expect(rows[0]).toEqual({ n: 0 });
  }, 30_000);

  it('when an account has a throughput of 20/s, then 50 messages take at least about two seconds', async () => {
    const smsc = await simulator();
    await connector(smsc);
    const messages = Array.from({ length: 50 }, () =>
      outbound({ accountId: 'acct-slow', throughputPerSecond: 20, deliveryReport: false }),
    );
    const started = Date.now();

    await publishOutbound(bus, ...messages);

    await eventually(
      () => expect(messages.filter((m) => events.of(m.messageId).length > 0)).toHaveLength(50),
      20_000,
    );
    const lastSubmit = Math.max(
      ...messages.flatMap((m) => submitsTo(smsc, m.to).map((s) => Date.parse(s.receivedAt))),
    );
    // 50 parts at 20/s with a burst of two: about 2.4 s; asserted generously.
    expect(lastSubmit - started).toBeGreaterThanOrEqual(1_500);
  }, 30_000);
});

describe('binds', () => {
  it('when the SMSC drops every session while messages flow, then the connector re-binds and submits every message', async () => {
    const smsc = await simulator();
    await connector(smsc, { SMSC_BINDS: `smpp://smsc:smsc@127.0.0.1:${smsc.port}?name=a&tps=40` });
    const messages = Array.from({ length: 40 }, () => outbound({ deliveryReport: false }));

    await publishOutbound(bus, ...messages);
    await eventually(() => expect(smsc.stats().submits).toBeGreaterThan(3));
    expect(smsc.dropSessions()).toBeGreaterThan(0);

    await eventually(
      () => expect(messages.filter((m) => events.of(m.messageId).length > 0)).toHaveLength(40),
      20_000,
    );
    for (const message of messages) {
      expect(submitsTo(smsc, message.to).length).toBeGreaterThanOrEqual(1);
      expect(events.of(message.messageId).map((s) => s.state)).toEqual(['submitted']);
    }
    expect(smsc.stats().binds).toBeGreaterThanOrEqual(2);
  }, 30_000);

  it('when the SMSC refuses binds, then /readyz is 503 until it accepts one', async () => {
    const smsc = await simulator();
    smsc.refuseBinds(true);
    const started = await startTestConnector(
      { pool, bus, logger },
      {
        SMSC_BINDS: `smpp://smsc:smsc@127.0.0.1:${smsc.port}?name=a`,
        SMPP_RECONNECT_MIN_MS: '50',
        SMPP_RECONNECT_MAX_MS: '100',
      },
    );
    cleanup.push(() => started.stop());
    await eventually(() => expect(smsc.stats().bindsRefused).toBeGreaterThan(1));

    await request(started.app).get('/readyz').expect(503);
    const metrics = await request(started.app).get('/metrics').expect(200);
    expect(metrics.text).toMatch(/smpp_bind_up\{[^}]*bind="a"[^}]*\} 0/);

    smsc.refuseBinds(false);
    await eventually(() => expect(started.isBound()).toBe(true));
    await request(started.app).get('/readyz').expect(200);
    const after = await request(started.app).get('/metrics').expect(200);
    expect(after.text).toMatch(/smpp_bind_up\{[^}]*bind="a"[^}]*\} 1/);
    expect(after.text).toMatch(/smpp_window_in_use\{[^}]*bind="a"[^}]*\} 0/);
  });
});

describe('SMSC outage', () => {
  it('when no bind is up, then messages wait (no status, no dead letter) and go out once a bind is up', async () => {
    const smsc = await simulator();
    const started = await connector(smsc);
    smsc.refuseBinds(true);
    smsc.dropSessions();
    await eventually(() => expect(started.isBound()).toBe(false));
    const message = outbound({ deliveryReport: false });
    const deadLetters: string[] = [];
    const dlq = await bus.subscribe({
      groupId: `dlq-${randomBytes(4).toString('hex')}`,
      topics: [Topics.deadLetter],
      handler: async (msg) => {
        deadLetters.push(msg.value.id);
      },
    });
    cleanup.push(() => dlq.stop());

    await publishOutbound(bus, message);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(events.of(message.messageId)).toHaveLength(0);
    expect(deadLetters).toHaveLength(0);

    smsc.refuseBinds(false);
    await eventually(() =>
      expect(events.of(message.messageId).map((s) => s.state)).toEqual(['submitted']),
    );
    expect(deadLetters).toHaveLength(0);
  });

  it('when the connector stops while a message waits for a bind, then stop returns promptly and the event stays unhandled', async () => {
    const smsc = await simulator();
    const started = await connector(smsc);
    smsc.refuseBinds(true);
    smsc.dropSessions();
    await eventually(() => expect(started.isBound()).toBe(false));
    const message = outbound({ deliveryReport: false });
    await publishOutbound(bus, message);
    await new Promise((resolve) => setTimeout(resolve, 200));

    const stopping = Date.now();
    await started.stop();

    expect(Date.now() - stopping).toBeLessThan(3_000);
    expect(smsc.submits()).toHaveLength(0);
    expect(events.of(message.messageId)).toHaveLength(0);
  });
});

describe('inbound SMS', () => {
  it('when the SMSC delivers a mobile-originated SMS, then sms.inbound.v1 carries its decoded text', async () => {
    const smsc = await simulator();
    await connector(smsc);

    expect(
      smsc.sendInbound({ from: '+46701112233', to: '+46709998877', text: 'Svar ja {1}' }),
    ).not.toBeNull();
    expect(
      smsc.sendInbound({ from: '+46701112234', to: '+46709998877', text: 'Да 👍' }),
    ).not.toBeNull();

    await eventually(() =>
      expect(events.inbound.filter((i) => i.to === '+46709998877')).toHaveLength(2),
    );
    const received = events.inbound.filter((i) => i.to === '+46709998877');
    expect(received).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ from: '+46701112233', text: 'Svar ja {1}' }),
        expect.objectContaining({ from: '+46701112234', text: 'Да 👍' }),
      ]),
    );
  });
});

describe('submit refused', () => {
  it('when the SMSC answers submit_sm with a permanent error, then failed is published with the SMPP status', async () => {
    const smsc = await simulator();
    await connector(smsc);
    const refusing = fakeBind('refusing', {
      submit: async () => ({ status: 0x0b, messageId: null }),
    });
    const handle = directOutboundHandler(refusing);
    const message = outbound();

    await handle(outboundEvent(message));

    // The running connector's relay publishes what this handler wrote to the shared outbox.
    await eventually(() => expect(events.of(message.messageId)).toHaveLength(1));
    expect(events.of(message.messageId)[0]).toMatchObject({
      state: 'failed',
      smscMessageIds: [],
      error: { smppStatus: 0x0b },
    });
  });
});

describe('concatenated inbound SMS', () => {
  it('when the parts of a long mobile-originated SMS arrive out of order, then one SmsInbound carries the whole text', async () => {
    const smsc = await simulator();
    await connector(smsc);
    const handle = createDeliverHandler({
      pool,
      metrics: createConnectorMetrics(new Registry(), () => []),
      logger,
    });
    const bind = fakeBind('direct');
    const part = (seq: number, text: string) => {
      const shortMessage = Buffer.concat([
        Buffer.from([0x05, 0x00, 0x03, 0x7a, 2, seq]),
        Buffer.from(text, 'utf16le').swap16(),
      ]);
      const octets = deliverSmOctets({
        sourceAddr: '46701230000',
        destinationAddr: '46705550000',
        esmClass: 0x40,
        dataCoding: 8,
        shortMessage,
      });
      return fakeDeliverSm(octets, {
        sequence_number: seq,
        source_addr_ton: 1,
        source_addr: '46701230000',
        dest_addr_ton: 1,
        destination_addr: '46705550000',
        esm_class: 0x40,
      });
    };

    await handle(bind, part(2, 'world 🌍'));
    expect(events.inbound.filter((i) => i.to === '+46705550000')).toHaveLength(0);
    await handle(bind, part(1, 'Hello '));

    await eventually(() =>
      expect(events.inbound.filter((i) => i.to === '+46705550000')).toEqual([
        expect.objectContaining({ from: '+46701230000', text: 'Hello world 🌍' }),
      ]),
    );
  });
});

describe('inbound addresses', () => {
  it('when an alphanumeric sender arrives as GSM-7 octets, then SmsInbound.from has its å ä ö', async () => {
    const smsc = await simulator();
    await connector(smsc);
    const handle = createDeliverHandler({
      pool,
      metrics: createConnectorMetrics(new Registry(), () => []),
      logger,
    });
    const bind = fakeBind('direct');
    // 'Åsa Öhlund' in GSM 03.38 septets: Å is 0E, Ö is 5C.
    const sender = Buffer.from('0e7361205c686c756e64', 'hex');
    const octets = deliverSmOctets({
      sourceAddr: sender,
      sourceTon: 5,
      destinationAddr: '46705550001',
      esmClass: 0,
      dataCoding: 0,
      shortMessage: Buffer.from('Hej'),
    });
    await handle(
      bind,
      fakeDeliverSm(octets, {
        // What the `smpp` package makes of the fields: ASCII, so 0E stays a control character.
        source_addr_ton: 5,
        source_addr: sender.toString('ascii'),
        dest_addr_ton: 1,
        destination_addr: '46705550001',
        esm_class: 0,
      }),
    );

    await eventually(() =>
      expect(events.inbound.filter((i) => i.to === '+46705550001')).toEqual([
        expect.objectContaining({ from: 'Åsa Öhlund', text: 'Hej' }),
      ]),
    );
  });
});

/** A bind that accepts every submit_sm with the id `smscMessageId()` gives and sends no receipt. */
function fixedIdBind(smscMessageId: () => string): SmppBind {
  return fakeBind('fixed', { submit: async () => ({ status: 0, messageId: smscMessageId() }) });
}

/** The sms.outbound.v1 event of `message`, checked by its schema as the bus hands it over. */
const outboundEvent = (message: ReturnType<typeof outbound>) =>
  eventContracts[Topics.smsOutbound].schema.parse(makeEvent(SMS_OUTBOUND_EVENT, message));

/** A DELIVRD receipt deliver_sm for `smscMessageId`, as the deliver handler gets it. */
function receiptFor(smscMessageId: string) {
  const shortMessage = Buffer.from(
    `id:${smscMessageId} sub:001 dlvrd:001 submit date:2601010000 done date:2601010000 stat:DELIVRD err:000 text:x`,
    'latin1',
  );
  const octets = deliverSmOctets({
    sourceAddr: '46701230000',
    destinationAddr: 'Acme',
    esmClass: 0x04,
    dataCoding: 0,
    shortMessage,
  });
  return fakeDeliverSm(octets, {
    esm_class: 0x04,
    receipted_message_id: smscMessageId,
    message_state: 2,
  });
}

describe('reused SMSC message ids', () => {
  it('when the SMSC answers a new message with the id of a delivered one, then the new one is delivered by its receipt, the old one is unchanged, and the reuse is counted', async () => {
    const smsc = await simulator();
    await connector(smsc);
    const smscId = `reused-${randomBytes(4).toString('hex')}`;
    const bind = fixedIdBind(() => smscId);
    const registry = new Registry();
    const metrics = createConnectorMetrics(registry, () => []);
    const handleOutbound = directOutboundHandler(bind, metrics);
    const handleDeliverSm = createDeliverHandler({ pool, metrics, logger });
    const first = outbound();
    const second = outbound();

    await handleOutbound(outboundEvent(first));
    await handleDeliverSm(bind, receiptFor(smscId));
    await eventually(() => expect(events.of(first.messageId)).toHaveLength(2));
    await handleOutbound(outboundEvent(second));
    await handleDeliverSm(bind, receiptFor(smscId));

    await eventually(() =>
      expect(events.of(second.messageId).map((status) => status.state)).toEqual([
        'submitted',
        'delivered',
      ]),
    );
    expect(events.of(first.messageId).map((status) => status.state)).toEqual([
      'submitted',
      'delivered',
    ]);
    expect((await registry.getSingleMetric('smsc_message_id_reused_total')?.get())?.values).toEqual(
      [expect.objectContaining({ value: 1 })],
    );
  });
});

describe('receipt deadline', () => {
  it("when a submitted message's receipt deadline passes, then the sweeper publishes it as expired", async () => {
    const smsc = await simulator();
    await connector(smsc, { EXPIRY_SWEEP_MS: '50' });
    const bind = fixedIdBind(() => randomBytes(8).toString('hex'));
    const handleOutbound = directOutboundHandler(bind);
    const message = outbound({ validityMinutes: 1 });
    await handleOutbound(outboundEvent(message));
    await eventually(() => expect(events.of(message.messageId)).toHaveLength(1));

    // The validity (1 min) and the grace have passed, as far as the database can tell.
    await pool.query(
      `UPDATE "smsc_connector"."submission" SET "expires_at" = now() - interval '1 second'
        WHERE "message_id" = $1`,
      [message.messageId],
    );

    await eventually(() =>
      expect(events.of(message.messageId)).toEqual([
        expect.objectContaining({ state: 'submitted' }),
        expect.objectContaining({
          state: 'expired',
          error: { description: 'no delivery receipt arrived by the end of the validity period' },
        }),
      ]),
    );
  });
});

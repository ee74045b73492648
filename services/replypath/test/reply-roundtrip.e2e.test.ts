import { randomBytes } from 'node:crypto';
import { createLogger } from '@msg/logger';
import { loadNotifierConfig, type Notifier, startNotifier } from '@msg/notifier';
import {
  loadSmscConnectorConfig,
  type SmscConnector,
  startSmscConnector,
} from '@msg/smsc-connector';
import { type SmscSimulator, startSmscSimulator } from '@msg/smsc-simulator';
import { type CallbackReceiver, startCallbackReceiver } from '@msg/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { until } from './inbound-support.js';
import { POOL, startTestReplypath, type TestReplypath } from './support.js';

/**
 * The whole path of a reply, with the services wired as in the embedded suite (one in-process
 * bus, one database, a schema each): a reply-path send, its submit_sm at the SMSC simulator, the
 * recipient's reply injected through the simulator's control API (POST /inbound), the
 * smsc-connector's sms.inbound.v1, the match here, and the notifier's callback to a local server.
 */

let h: TestReplypath;
let smsc: SmscSimulator;
let connector: SmscConnector;
let notifier: Notifier;
let receiver: CallbackReceiver;

beforeAll(async () => {
  h = await startTestReplypath({ postgres: true });
  const runtime = {
    pool: h.pool,
    bus: h.bus,
    logger: createLogger({ service: 'e2e', level: 'error' }),
  };
  smsc = await startSmscSimulator({});
  connector = await startSmscConnector(
    loadSmscConnectorConfig({
      LOG_LEVEL: 'error',
      SMSC_BINDS: `smpp://smsc:smsc@127.0.0.1:${smsc.port}?name=a&window=10&tps=1000`,
      OUTBOX_POLL_MS: '20',
      SMSC_CONSUMER_GROUP: `smsc-connector-${randomBytes(4).toString('hex')}`,
    }),
    runtime,
  );
  notifier = await startNotifier(
    loadNotifierConfig({
      LOG_LEVEL: 'error',
      CALLBACK_SECRETS_KEY: randomBytes(32).toString('hex'),
      CALLBACK_ALLOW_PRIVATE_TARGETS: 'true',
    }),
    runtime,
  );
  receiver = await startCallbackReceiver();
  await until(() => expect(connector.isBound()).toBe(true));
}, 120_000);

afterAll(async () => {
  await receiver?.close();
  await notifier?.stop();
  await connector?.stop();
  await smsc?.close();
  await h?.stop();
});

it('when the recipient answers a reply-path SMS, then the account callback gets the reply with InResponseTo = its TransactionId', async () => {
  const account = await h.publishAccount(
    h.account({
      callbacks: {
        replyPathUrl: `${receiver.url}/replies`,
        replyPathMethod: 'POST',
        deliveryReportUrl: null,
        voiceReportUrl: null,
      },
    }),
  );

  const sent = await h.send(account, { To: '070-123 45 67', Msg: 'Kommer du i morgon?' });
  expect(sent.status).toBe(200);
  const { TransactionId, OriginatorAddress, DestinationAddress } = sent.body;
  expect(POOL).toContain(OriginatorAddress);
  expect(DestinationAddress).toBe('+46701234567');

  // The SMS reached the SMS centre from the allocated number.
  await until(() =>
    expect(smsc.submits().filter((s) => s.text === 'Kommer du i morgon?')).toEqual([
      expect.objectContaining({
        sourceAddr: OriginatorAddress.slice(1),
        destinationAddr: '46701234567',
      }),
    ]),
  );

  const injected = await fetch(`${smsc.controlUrl}/inbound`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      from: DestinationAddress,
      to: OriginatorAddress,
      text: 'Ja, klockan 9',
    }),
  });
  expect(injected.status).toBe(202);

  await until(() => expect(receiver.received).toHaveLength(1), 30_000);
  const [callback] = receiver.received;
  expect(callback?.method).toBe('POST');
  expect(callback?.url.pathname).toBe('/replies');
  expect(JSON.parse(callback?.body ?? '')).toEqual({
    From: DestinationAddress,
    InResponseTo: TransactionId,
    Msg: 'Ja, klockan 9',
  });
});

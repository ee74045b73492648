import { type CallbackReceiver, type ReceivedCallback, startCallbackReceiver } from '@msg/testing';
import got, { type Got } from 'got';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Platform, startEmbedded } from './platform.js';
import { waitFor } from './sms-path.js';

/**
 * Replies and delivery reports of reply-path on the embedded defaults: a send through the
 * gateway, the recipient's answer injected at the SMSC simulator's control API (POST /inbound),
 * then over SMPP, the smsc-connector and the bus to the replypath service, and through the
 * notifier to the account's callbacks (a local HTTP server here).
 */
/** The first request the receiver got at `path`, once it has (undefined if none within 30 s). */
async function receivedAt(path: string): Promise<ReceivedCallback | undefined> {
  const at = () => receiver.received.find((r) => r.url.pathname === path);
  await waitFor(async () => at() !== undefined, 30_000, 50);
  return at();
}

let platform: Platform;
let gateway: Got;
let receiver: CallbackReceiver;
const account = { name: `rpreply${Date.now().toString(36)}`, password: 'e2e-password-123' };

beforeAll(async () => {
  receiver = await startCallbackReceiver();
  platform = await startEmbedded();
  const created = await got.post(`${platform.adminUrl}/internal/v1/accounts`, {
    headers: { authorization: `Bearer ${platform.adminToken}` },
    json: {
      name: account.name,
      password: account.password,
      permissions: ['replypath'],
      callbacks: {
        replyPathUrl: `${receiver.url}/replies?key=abc`,
        replyPathMethod: 'GET',
        deliveryReportUrl: `${receiver.url}/reports`,
      },
    },
  });
  expect(created.statusCode).toBe(201);
  gateway = got.extend({
    prefixUrl: platform.gatewayUrl,
    username: account.name,
    password: account.password,
    throwHttpErrors: false,
    retry: { limit: 0 },
    responseType: 'json',
  });
  // The account reaches the replypath service over the bus: a dry run answers once it has.
  const known = await waitFor(async () => {
    const res = await gateway.post('replypath/v1/sendsms?instantiate=false', {
      json: { To: '0701234599', Msg: 'x' },
    });
    return res.statusCode === 200;
  }, 30_000);
  expect(known).toBe(true);
}, 180_000);

afterAll(async () => {
  await platform?.stop();
  await receiver?.close();
}, 60_000);

describe('reply-path replies and delivery reports through the whole platform', () => {
  it('when the recipient answers, then the callback gets Msg and InResponseTo = TransactionId, and the DLR=1 report arrives', async () => {
    const res = await gateway.post<Record<string, string>>('replypath/v1/sendsms', {
      json: { To: '070-123 45 88', Msg: 'Vill du boka?', DLR: 1, VP: 60 },
    });
    expect(res.statusCode).toBe(200);
    const { TransactionId, OriginatorAddress, DestinationAddress } = res.body;

    // The simulator's default rules deliver it and send a receipt: the report is forwarded.
    const report = await receivedAt('/reports');
    expect(report?.method).toBe('POST');
    expect(JSON.parse(report?.body ?? '')).toMatchObject({
      TransactionId,
      DestinationAddress,
      OriginatorAddress,
      Status: 'DELIVERED',
    });

    const injected = await got.post(`${platform.smscControlUrl}/inbound`, {
      json: { from: DestinationAddress, to: OriginatorAddress, text: 'Ja tack' },
      throwHttpErrors: false,
    });
    expect(injected.statusCode).toBe(202);

    const reply = await receivedAt('/replies');
    expect(reply?.method).toBe('GET');
    expect(Object.fromEntries(reply?.url.searchParams ?? [])).toEqual({
      key: 'abc',
      Msg: 'Ja tack',
      InResponseTo: TransactionId,
    });
  });
});

import {
  type CallbackReceiver,
  headerRecord,
  type ReceivedCallback,
  startCallbackReceiver,
} from '@msg/testing';
import got, { type Got } from 'got';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Platform, replypathPlatforms } from './platform.js';
import { replypathAccount } from './replypath-account.js';
import { waitFor } from './sms-path.js';

/**
 * Replies and delivery reports of reply-path on both platforms (the embedded defaults, and a
 * process per service on real Kafka and Postgres): a send through the gateway, the recipient's
 * answer injected at the SMSC simulator's control API (POST /inbound), then over SMPP, the smsc-
 * connector and the bus to the replypath service, and through the notifier to the account's
 * callbacks (a local HTTP server here).
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

describe.each(replypathPlatforms)('reply-path replies on %s', (_platform, start) => {
  beforeAll(async () => {
    receiver = await startCallbackReceiver();
    platform = await start();
    ({ gateway } = await replypathAccount(platform, 'rpreply', {
      callbacks: {
        replyPathUrl: `${receiver.url}/replies?key=abc`,
        replyPathMethod: 'GET',
        deliveryReportUrl: `${receiver.url}/reports`,
      },
    }));
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

      // Both are signed with the account's own secret (Standard Webhooks): the POST report over
      // its body, the GET reply over its query string as received.
      const { body: signing } = await gateway.get<{ secret: string }>(
        'v1/callbacks/signing-secret',
      );
      const verifier = new Webhook(signing.secret);
      const headers = (callback: ReceivedCallback | undefined) =>
        headerRecord(callback?.headers ?? {});
      expect(verifier.verify(report?.body ?? '', headers(report))).toMatchObject({ TransactionId });
      const query = reply?.url.search.replace(/^\?/, '') ?? '';
      expect(verifier.verify(query, headers(reply), { jsonParse: false })).toBeUndefined();
      expect(() =>
        verifier.verify(query.replace('Ja', 'Nej'), headers(reply), { jsonParse: false }),
      ).toThrow('No matching signature found');
    });
  });
});

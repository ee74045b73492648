import { request as httpRequest } from 'node:http';
import { eventually } from '@msg/testing';
import got from 'got';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createGatewayAccount,
  type GatewayAccount,
  type Platform,
  replypathPlatforms,
} from './platform.js';

/**
 * The deprecated legacy reply-path interface end to end on both platforms (the embedded defaults,
 * and a process per service on real Kafka and Postgres): through the gateway into
 * replypath-legacy, through the replypath service's internal API (the seeded PTS fiction pool),
 * over the bus and SMPP to the SMSC simulator.
 */
const FICTION = /^467017406(0[5-9]|[1-9][0-9])$/;

let platform: Platform;
let account: GatewayAccount;

describe.each(replypathPlatforms)('legacy reply-path on %s', (_platform, start) => {
  beforeAll(async () => {
    platform = await start();
    account = await createGatewayAccount(platform, 'rplegacy', ['replypath']);
    // The account reaches both services over the bus: a recipient the replypath service refuses
    // (400; 401 before the legacy service knows the account, 503 before the replypath service does).
    await eventually(
      async () => {
        const res = await account.gateway.get('v1/replypath/sendsms', {
          searchParams: { To: '+4791234567', Msg: 'x' },
        });
        return res.statusCode === 400 ? true : undefined;
      },
      'the account in both services',
      20_000,
    );
  }, 180_000);

  afterAll(async () => {
    await platform?.stop();
  }, 60_000);

  describe('legacy reply-path SMS through the gateway to the SMSC', () => {
    it('when sent with To and Msg in the query, then 200 with the array, deprecation headers, and the SMSC gets a fiction-range sender', async () => {
      const res = await account.gateway.get<
        { DestinationAddress: string; TransactionId: string }[]
      >('v1/replypath/sendsms', { searchParams: { To: '070-123 45 11', Msg: 'Svara JA' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers.deprecation).toBe('@1795478400');
      expect(res.headers.link).toBe('</replypath/v1/sendsms>; rel="successor-version"');
      expect(res.body).toEqual([
        { DestinationAddress: '+46701234511', TransactionId: expect.any(String) },
      ]);
      const smsc = got.extend({ prefixUrl: platform.smscControlUrl ?? '', responseType: 'json' });
      const submit = await eventually(
        async () =>
          (
            await smsc.get<{ sourceAddr: string; destinationAddr: string; text: string | null }[]>(
              'submits',
            )
          ).body.find((s) => s.destinationAddr === '46701234511'),
        'the submit to the SMSC',
        20_000,
      );
      expect(submit.sourceAddr).toMatch(FICTION);
      expect(submit.text).toBe('Svara JA');
    });

    it('when the recipient is not Swedish, then 400 in the legacy format naming query.To', async () => {
      const res = await account.gateway.get<Record<string, string>>('v1/replypath/sendsms', {
        searchParams: { To: '+4791234567', Msg: 'Hi' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.body).toEqual({
        status: '400 Bad Request',
        message: expect.stringMatching(/^query\.To: /),
      });
    });

    it('when a POST comes chunked through the gateway, then 411', async () => {
      const url = new URL('/v1/replypath/sendsms', platform.gatewayUrl);
      const status = await new Promise<number>((resolve, reject) => {
        const req = httpRequest(url, {
          method: 'POST',
          headers: { authorization: account.basic, 'content-type': 'application/json' },
        });
        req.on('response', (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        // No Content-Length: Node sends the body chunked.
        req.write('{"To":"0701234512",');
        req.end('"Msg":"x"}');
      });
      expect(status).toBe(411);
    });
  });
});

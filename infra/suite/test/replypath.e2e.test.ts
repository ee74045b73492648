import { eventually } from '@msg/testing';
import got, { type Got } from 'got';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Platform, replypathPlatforms } from './platform.js';
import { replypathAccount } from './replypath-account.js';

/**
 * Reply-path sending end to end on both platforms (the embedded defaults, and a process per
 * service on real Kafka and Postgres): through the gateway into the replypath service (the seeded
 * PTS fiction pool), over the bus to the smsc-connector, over real SMPP to the SMSC simulator,
 * which must see the allocated number as an international sender.
 */
interface Submit {
  sourceAddr: string;
  sourceAddrTon: number;
  destinationAddr: string;
  registeredDelivery: number;
  text: string | null;
}

const FICTION = /^\+467017406(0[5-9]|[1-9][0-9])$/;

let platform: Platform;
let gateway: Got;
let smsc: Got;

describe.each(replypathPlatforms)('reply-path sending on %s', (_platform, start) => {
  beforeAll(async () => {
    platform = await start();
    smsc = got.extend({ prefixUrl: platform.smscControlUrl ?? '', responseType: 'json' });
    ({ gateway } = await replypathAccount(platform, 'rpe2e'));
  }, 180_000);

  afterAll(async () => {
    await platform?.stop();
  }, 60_000);

  async function submitsTo(number: string): Promise<Submit[]> {
    return eventually(
      async () => {
        const mine = (await smsc.get<Submit[]>('submits')).body.filter(
          (s) => `+${s.destinationAddr}` === number,
        );
        return mine.length > 0 ? mine : undefined;
      },
      `a submit_sm to ${number}`,
      20_000,
    );
  }

  describe('reply-path SMS through the gateway to the SMSC', () => {
    it('when sent with DLR=1, then the SMSC gets the allocated fiction-range number as an international sender and a receipt request', async () => {
      const res = await gateway.post<Record<string, string>>('replypath/v1/sendsms', {
        json: { To: '070-123 45 01', Msg: 'Reply YES', DLR: 1, VP: 60 },
      });
      expect(res.statusCode).toBe(200);
      expect(res.body).toMatchObject({
        DestinationAddress: '+46701234501',
        OriginatorAddress: expect.stringMatching(FICTION),
      });
      const [submit] = await submitsTo('+46701234501');
      expect(submit).toMatchObject({
        sourceAddr: res.body.OriginatorAddress?.slice(1),
        sourceAddrTon: 1,
        text: 'Reply YES',
      });
      expect((submit?.registeredDelivery ?? 0) & 0x03).not.toBe(0);
    });

    it('when two messages go to one recipient, then they come from two different numbers', async () => {
      const send = () =>
        gateway.post<Record<string, string>>('replypath/v1/sendsms', {
          json: { To: '+46701234502', Msg: 'Which one?' },
        });
      const [a, b] = [await send(), await send()];
      expect(a.body.OriginatorAddress).not.toBe(b.body.OriginatorAddress);
    });

    it('when the body breaks a rule, then the gateway passes on the 7.2 error', async () => {
      const res = await gateway.post<Record<string, unknown>>('replypath/v1/sendsms', {
        json: { To: '+4791234567', Msg: 'Hi' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.body).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: { loc: ['body', 'To'], type: 'not_swedish' },
      });
    });
  });
});

import { eventually } from '@msg/testing';
import got, { type Got } from 'got';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GatewayAccount, type Platform, startEmbedded } from './platform.js';
import { smsAccount } from './sms-account.js';

/**
 * Opt-out end to end on the embedded defaults (issue 12, beyond the specification): a STOP sent
 * from a phone to the SMSC simulator reaches the sms service as sms.inbound.v1 (through the
 * smsc-connector), which refuses the next send through the gateway and publishes optouts.v1;
 * admin's operator list shows it; the operator's removal lets sends through again.
 */

let platform: Platform;
let gateway: Got;
let admin: Got;
let smsc: Got;
let account: GatewayAccount;
const NUMBER = '+46700000123';
const PHONE = '+46701239001';

beforeAll(async () => {
  platform = await startEmbedded();
  smsc = got.extend({ prefixUrl: platform.smscControlUrl ?? '', responseType: 'json' });
  admin = got.extend({
    prefixUrl: `${platform.adminUrl}/internal/v1/accounts`,
    headers: { authorization: `Bearer ${platform.adminToken}` },
    throwHttpErrors: false,
    responseType: 'json',
  });
  // NUMBER is a sender only when registered to the account (issue 23).
  account = await smsAccount(platform, 'optoute2e', { senderIds: [NUMBER] });
  gateway = account.gateway;
}, 180_000);

afterAll(async () => {
  await platform?.stop();
}, 60_000);

const send = () =>
  gateway.post<{ code?: string; details?: { loc: string[]; type: string }[] }>('v1/sms/send', {
    json: { to: PHONE, from: NUMBER, message: 'Spring offer' },
  });

describe('opt-out through the SMSC, the gateway and admin', () => {
  it('when the phone replies STOP, then sends to it are refused, admin lists it, and the operator can lift it', async () => {
    expect((await send()).statusCode).toBe(202);

    const inbound = await smsc.post('inbound', { json: { from: PHONE, to: NUMBER, text: 'Stop' } });
    expect(inbound.statusCode).toBe(202);

    const refused = await eventually(
      async () => {
        const res = await send();
        return res.statusCode === 400 ? res : undefined;
      },
      'the refusal of an opted-out recipient',
      30_000,
      100,
    );
    expect(refused.body).toMatchObject({
      code: 'RECIPIENT_OPTED_OUT',
      details: [{ loc: ['body', 'to'], type: 'opted_out' }],
    });

    const listed = await eventually(
      async () => {
        const res = await admin.get<{ optOuts: { msisdn: string; source: string }[] }>(
          `${account.name}/opt-outs`,
        );
        return res.body.optOuts.length > 0 ? res.body.optOuts : undefined;
      },
      'the opt-out in the operator list',
      30_000,
      100,
    );
    expect(listed).toEqual([
      expect.objectContaining({ msisdn: PHONE, source: 'inbound', keyword: 'STOP' }),
    ]);

    expect((await admin.delete(`${account.name}/opt-outs/${PHONE}`)).statusCode).toBe(204);
    const allowed = await eventually(
      async () => {
        const res = await send();
        return res.statusCode === 202 ? res : undefined;
      },
      'sends allowed again',
      30_000,
      100,
    );
    expect(allowed.statusCode).toBe(202);
  });
});

import { gzipSync } from 'node:zlib';
import { eventually } from '@msg/testing';
import got, { type Got } from 'got';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSuite } from '../src/suite.js';
import { startEmbedded } from './platform.js';
import { smsAccount } from './sms-account.js';

/**
 * Issue 23: an account's registered sender ids and the operator's protected names bind the SMS
 * paths, end to end on the embedded defaults — admin (the operator's API) publishes them,
 * the sms and batch services refuse through the gateway, and what is allowed reaches the SMSC.
 */
interface Submit {
  sourceAddr: string;
  destinationAddr: string;
}
interface Refusal {
  code: string;
  details: { loc: string[]; type: string }[];
}

let suite: RunningSuite;
let smsc: Got;
let admin: Got;

beforeAll(async () => {
  suite = await startEmbedded();
  smsc = got.extend({ prefixUrl: suite.smscControlUrl ?? '', responseType: 'json' });
  admin = got.extend({
    prefixUrl: `${suite.adminUrl}/internal/v1`,
    headers: { authorization: `Bearer ${suite.adminToken}` },
    responseType: 'json',
  });
}, 180_000);

afterAll(async () => {
  await suite?.stop();
}, 60_000);

const submitsTo = (to: string) =>
  eventually(
    async () => {
      const mine = (await smsc.get<Submit[]>('submits')).body.filter(
        (s) => `+${s.destinationAddr}` === to || s.destinationAddr === to,
      );
      return mine.length > 0 ? mine : undefined;
    },
    `submit_sm to ${to}`,
    20_000,
    100,
  );

describe('sender ids through the gateway (issue 23)', () => {
  it('when an account registered as ACME sends from BANKID, then 400 naming from; from ACME, it reaches the SMSC as ACME', async () => {
    const acme = await smsAccount(suite, 'acmesender', { senderIds: ['ACME'] });
    const refused = await acme.gateway.post<Refusal>('v1/sms/send', {
      json: { to: '+46701234701', from: 'BANKID', message: 'Din BankID har spärrats' },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.body.code).toBe('VALIDATION_ERROR');
    expect(refused.body.details).toEqual([
      expect.objectContaining({ loc: ['body', 'from'], type: 'not_registered' }),
    ]);
    const sent = await acme.gateway.post('v1/sms/send', {
      json: { to: '+46701234702', from: 'ACME', message: 'Hej' },
    });
    expect(sent.statusCode).toBe(202);
    const [submit] = await submitsTo('+46701234702');
    expect(submit?.sourceAddr).toBe('ACME');
    const none = (await smsc.get<Submit[]>('submits')).body.filter((s) =>
      s.destinationAddr.endsWith('46701234701'),
    );
    expect(none).toEqual([]);
  });

  it('when the operator protects BankID, then an account that did not register it is refused it (and B4NK ID) with 400, and the account it is registered to sends as it', async () => {
    expect((await admin.put('protected-senders/BankID')).statusCode).toBe(201);
    const other = await smsAccount(suite, 'opensender');
    const send = (from: string, to: string) =>
      other.gateway.post<Refusal>('v1/sms/send', { json: { to, from, message: 'x' } });
    // The list reaches the sms service over the bus, like an account.
    const refused = await eventually(
      async () => {
        const res = await send('BankID', '+46701234703');
        return res.statusCode === 400 ? res : undefined;
      },
      'BankID refused',
      20_000,
      100,
    );
    expect(refused.body.details).toEqual([
      expect.objectContaining({ loc: ['body', 'from'], type: 'protected' }),
    ]);
    expect((await send('B4NK ID', '+46701234704')).body.details[0]?.type).toBe('protected');
    expect((await send('Acme', '+46701234705')).statusCode).toBe(202);

    const bank = await smsAccount(suite, 'banksender', { senderIds: ['BankID'] });
    const sent = await bank.gateway.post('v1/sms/send', {
      json: { to: '+46701234706', from: 'BankID', message: 'Din kod' },
    });
    expect(sent.statusCode).toBe(202);
    expect((await submitsTo('+46701234706'))[0]?.sourceAddr).toBe('BankID');
  });

  it('when the demo account (registered as ACME) creates a batch, then sender_id ACME is accepted and BANKID is a 400 naming sender_id', async () => {
    const gateway = got.extend({
      prefixUrl: suite.gatewayUrl,
      throwHttpErrors: false,
      retry: { limit: 0 },
    });
    const token = (
      await gateway
        .post('v1/oauth/token', {
          json: { client_id: suite.demo.username, client_secret: suite.demo.apiKey },
        })
        .json<{ access_token: string }>()
    ).access_token;
    const create = (senderId: string) =>
      gateway.post('v1/batches', {
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-encoding': 'gzip',
        },
        body: gzipSync(
          JSON.stringify({
            batch: {
              sms_config: { sender_id: senderId, message_template: 'Hej' },
              recipients: [{ phone_number: '+46701234707' }],
              dry_run: true,
            },
          }),
        ),
      });
    const refused = await create('BANKID');
    expect(refused.statusCode).toBe(400);
    expect(JSON.parse(refused.body).details).toEqual([
      expect.objectContaining({
        loc: ['body', 'batch', 'sms_config', 'sender_id'],
        type: 'not_registered',
      }),
    ]);
    // One create per second per account.
    await new Promise((r) => setTimeout(r, 1_100));
    expect((await create('ACME')).statusCode).toBe(202);
  });
});

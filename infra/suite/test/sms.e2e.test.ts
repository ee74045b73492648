import { createServer, type Server } from 'node:http';
import { eventually } from '@msg/testing';
import got, { type Got } from 'got';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GatewayAccount, type Platform, startEmbedded } from './platform.js';
import { smsAccount } from './sms-account.js';

/**
 * The SMS delivery path end to end on the embedded defaults: through the gateway into the sms
 * service, over the bus to the smsc-connector, over real SMPP to the SMSC simulator, the receipt
 * back, the status query and the delivery-report callback through the notifier.
 */
interface Submit {
  destinationAddr: string;
  dataCoding: number;
  text: string | null;
  shortMessageHex: string;
  concat: { ref: number; total: number; seq: number } | null;
}

let platform: Platform;
let gateway: Got;
let smsc: Got;
let receiver: Server;
let receiverUrl: string;
const callbacks: Record<string, unknown>[] = [];
let account: GatewayAccount;

beforeAll(async () => {
  platform = await startEmbedded();
  smsc = got.extend({ prefixUrl: platform.smscControlUrl ?? '', responseType: 'json' });
  // Its sender ids: ACME and the shortcode 72000 (a number is a sender only when registered).
  account = await smsAccount(platform, 'smse2e', { senderIds: ['ACME', '72000'] });
  gateway = account.gateway;
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      callbacks.push(JSON.parse(body));
      res.end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const address = receiver.address();
  receiverUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/dlr`;
}, 180_000);

afterAll(async () => {
  receiver?.close();
  await platform?.stop();
}, 60_000);

const send = (body: Record<string, unknown>) =>
  gateway.post<{ messageId: string }>('v1/sms/send', { json: body });

async function submitsTo(number: string, count = 1): Promise<Submit[]> {
  return eventually(
    async () => {
      const all = (await smsc.get<Submit[]>('submits')).body;
      const mine = all.filter(
        (s) => `+${s.destinationAddr}` === number || s.destinationAddr === number,
      );
      return mine.length >= count ? mine : undefined;
    },
    'submit_sm at the SMSC',
    20_000,
    100,
  );
}

async function statusOf(id: string, wanted: string) {
  return eventually(
    async () => {
      const res = await gateway.get<{ status: string; smscMessageIds: string[] }>(`v1/sms/${id}`);
      return res.body.status === wanted ? res.body : undefined;
    },
    'the status',
    20_000,
    100,
  );
}

describe('SMS through the gateway to the SMSC and back', () => {
  it('when a GSM-7 SMS is sent, then the SMSC gets one submit_sm (data_coding 0), the receipt makes it delivered and the callback arrives', async () => {
    const res = await send({
      to: '0701234501',
      from: 'ACME',
      message: 'Hello € world',
      callback_url: receiverUrl,
    });
    expect(res.statusCode).toBe(202);
    const { messageId } = res.body;
    const [submit] = await submitsTo('+46701234501');
    expect(submit).toMatchObject({ dataCoding: 0, text: 'Hello € world', concat: null });
    expect(submit?.shortMessageHex).toContain('1b65');
    const done = await statusOf(messageId, 'delivered');
    expect(done.smscMessageIds).toHaveLength(1);
    const callback = await eventually(
      async () => callbacks.find((c) => c.messageId === messageId && c.status === 'delivered'),
      'the delivery callback',
    );
    expect(callback).toMatchObject({ messageId, status: 'delivered' });
  });

  it('when a long GSM-7 SMS is sent, then it goes as 2 parts with concatenation UDH', async () => {
    const res = await send({ to: '+46701234502', from: 'ACME', message: 'x'.repeat(200) });
    expect(res.statusCode).toBe(202);
    const parts = await submitsTo('+46701234502', 2);
    expect(parts.map((p) => p.concat?.total)).toEqual([2, 2]);
    expect(parts.map((p) => p.concat?.seq).sort()).toEqual([1, 2]);
    expect((await statusOf(res.body.messageId, 'delivered')).smscMessageIds).toHaveLength(2);
  });

  it('when the text needs UCS-2, then data_coding is 8', async () => {
    const res = await send({ to: '+46701234503', from: '72000', message: 'Привет 👋' });
    expect(res.statusCode).toBe(202);
    const [submit] = await submitsTo('+46701234503');
    expect(submit).toMatchObject({ dataCoding: 8, text: 'Привет 👋' });
  });

  it('when the SMSC reports the message undeliverable, then its status is failed', async () => {
    await smsc.put('rules', { json: { rules: '+46701234504=UNDELIV,*=DELIVRD' } });
    const res = await send({ to: '+46701234504', from: 'ACME', message: 'nope' });
    expect(res.statusCode).toBe(202);
    await statusOf(res.body.messageId, 'failed');
  });

  it('when the message needs 11 parts, then 400 names message and the rule; nothing reaches the SMSC', async () => {
    const res = await send({ to: '+46701234505', from: 'ACME', message: 'y'.repeat(1531) });
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.body)).toMatch(/message/);
    expect(JSON.stringify(res.body)).toMatch(/10 parts/);
  });

  it('when the credentials are wrong, then 401 with a Basic challenge', async () => {
    const res = await gateway.post('v1/sms/send', {
      password: 'wrong-password',
      json: { to: '+46701234506', from: 'ACME', message: 'x' },
    });
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Basic/);
  });
});

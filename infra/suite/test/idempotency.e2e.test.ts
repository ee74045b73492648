import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { eventually } from '@msg/testing';
import got, { type Got } from 'got';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GatewayAccount, type Platform, startEmbedded } from './platform.js';
import { smsAccount } from './sms-account.js';

/**
 * The retry the chaos run caught sending twice: a client whose first POST /v1/sms/send got no
 * answer sends it again with the same Idempotency-Key, through the gateway, and exactly one
 * message reaches the SMSC.
 */

let platform: Platform;
let gateway: Got;
let smsc: Got;
let account: GatewayAccount;

beforeAll(async () => {
  platform = await startEmbedded();
  smsc = got.extend({ prefixUrl: platform.smscControlUrl ?? '', responseType: 'json' });
  account = await smsAccount(platform, 'idem');
  gateway = account.gateway;
}, 180_000);

afterAll(async () => {
  await platform?.stop();
}, 60_000);

/** Sends the request whole, then hangs up without waiting for the answer (the answer is lost). */
function sendAndHangUp(body: string, key: string): Promise<void> {
  const url = new URL('v1/sms/send', `${platform.gatewayUrl}/`);
  return new Promise((resolve) => {
    const req = httpRequest(url, {
      method: 'POST',
      headers: {
        authorization: account.basic,
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        'idempotency-key': key,
      },
    });
    req.on('error', () => resolve());
    req.on('finish', () => {
      req.destroy();
      resolve();
    });
    req.end(body);
  });
}

async function submitsTo(number: string): Promise<number> {
  const all = (await smsc.get<{ destinationAddr: string }[]>('submits')).body;
  return all.filter((s) => `+${s.destinationAddr}` === number || s.destinationAddr === number)
    .length;
}

describe('a retried POST /v1/sms/send with Idempotency-Key', () => {
  it('when the first answer was lost and the client retries with the same key, then one message is sent and the retry gets its id', async () => {
    const to = '+46701239901';
    const body = JSON.stringify({ to, from: 'ACME', message: 'only once' });
    const key = randomUUID();
    await sendAndHangUp(body, key);

    // The retry may find the first still running (409, Retry-After): the client waits and retries.
    const retried = await eventually(
      async () => {
        const res = await gateway.post<{ messageId: string }>('v1/sms/send', {
          body,
          headers: { 'content-type': 'application/json', 'idempotency-key': key },
        });
        return res.statusCode === 409 ? undefined : res;
      },
      'the retried send',
      20_000,
      100,
    );
    expect(retried.statusCode).toBe(202);
    const { messageId } = retried.body;

    const again = await gateway.post<{ messageId: string }>('v1/sms/send', {
      body,
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
    });
    expect(again.statusCode).toBe(202);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.messageId).toBe(messageId);

    await eventually(
      async () => {
        const res = await gateway.get<{ status: string }>(`v1/sms/${messageId}`);
        return res.body.status === 'delivered' ? true : undefined;
      },
      'delivered',
      20_000,
      100,
    );
    expect(await submitsTo(to)).toBe(1);
  });
});

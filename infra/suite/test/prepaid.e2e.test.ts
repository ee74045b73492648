import { gzipSync } from 'node:zlib';
import { eventually } from '@msg/testing';
import got, { type Got } from 'got';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type GatewayAccount, type Platform, startEmbedded } from './platform.js';
import { smsAccount } from './sms-account.js';

/**
 * Rule 5.3 end to end on the embedded defaults: an operator makes an account prepaid and tops it
 * up through the admin API, the sms service debits the admin service's balance through the
 * gateway's public path, and an empty balance refuses the send until the next top-up.
 */
let platform: Platform;
let gateway: Got;
let admin: Got;
let account: GatewayAccount;
const sms = { to: '+46701234567', message: 'x'.repeat(161), from: 'Acme' }; // two parts

beforeAll(async () => {
  platform = await startEmbedded();
  admin = got.extend({
    prefixUrl: `${platform.adminUrl}/internal/v1/accounts`,
    headers: { authorization: `Bearer ${platform.adminToken}` },
    responseType: 'json',
  });
  account = await smsAccount(platform, 'prepaide2e', { billingMode: 'prepaid' });
  gateway = account.gateway;
}, 180_000);

afterAll(async () => {
  await platform?.stop();
}, 60_000);

describe('prepaid single SMS through the gateway', () => {
  it('when the balance is empty, then 402; topped up with 3 credits, then one two-part SMS goes and the next is 402 with 1 credit left', async () => {
    const empty = await gateway.post('v1/sms/send', { json: sms });
    expect(empty.statusCode).toBe(402);
    expect(empty.body).toMatchObject({ code: 'INSUFFICIENT_FUNDS' });

    await admin.post(`${account.name}/top-ups`, { json: { credits: 3 } });
    const sent = await gateway.post('v1/sms/send', { json: sms });
    expect(sent.statusCode).toBe(202);
    const refused = await gateway.post('v1/sms/send', { json: sms });
    expect(refused.statusCode).toBe(402);

    const view = await admin.get(account.name).json<{ billing: { balance: number } }>();
    expect(view.billing).toEqual({ mode: 'prepaid', balance: 1 });
  });
});

describe('prepaid batch through the gateway', () => {
  it('when the balance pays for two of three one-part recipients, then two are submitted, the third fails, and the batch completes', async () => {
    const name = `prepaidbatch${Date.now().toString(36)}`;
    const created = await admin
      .post('', {
        json: { name, permissions: ['batch_sms'], billingMode: 'prepaid', createApiKey: true },
      })
      .json<{ apiKey: string }>();
    await admin.post(`${name}/top-ups`, { json: { credits: 2 } });
    const token = await eventually(
      async () => {
        const res = await got.post<{ access_token: string }>(
          `${platform.gatewayUrl}/v1/oauth/token`,
          {
            json: {
              client_id: name,
              client_secret: created.apiKey,
              grant_type: 'client_credentials',
            },
            responseType: 'json',
            throwHttpErrors: false,
          },
        );
        return res.statusCode === 200 ? res.body.access_token : undefined;
      },
      'a batch token',
      20_000,
      100,
    );
    const batches = got.extend({
      prefixUrl: platform.gatewayUrl,
      headers: { authorization: `Bearer ${token}` },
      responseType: 'json',
    });
    const batch = {
      sms_config: { sender_id: 'Acme', message_template: 'Hej {{name}}' },
      recipients: ['+46701110001', '+46701110002', '+46701110003'].map((phone_number, i) => ({
        phone_number,
        field_message: { name: `N${i}` },
      })),
    };
    const { id } = await batches
      .post('v1/batches', {
        body: gzipSync(JSON.stringify({ batch })),
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      })
      .json<{ id: string }>();

    const summary = await vi.waitFor(
      async () => {
        const polled = await batches
          .get(`v1/batches/${id}/poll`)
          .json<{ batch_status_summary: Record<string, unknown> }>();
        const s = polled.batch_status_summary;
        if (s.status !== 'completed') throw new Error(JSON.stringify(s));
        return s;
      },
      { timeout: 60_000, interval: 250 },
    );
    expect(summary).toMatchObject({ submitted_messages: 2, failed_messages: 1, total_parts: 2 });
    const view = await admin.get(name).json<{ billing: { balance: number } }>();
    expect(view.billing).toEqual({ mode: 'prepaid', balance: 0 });
  });
});

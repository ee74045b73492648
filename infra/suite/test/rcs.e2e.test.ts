import { createHmac, timingSafeEqual } from 'node:crypto';
import { type CallbackReceiver, type ReceivedCallback, startCallbackReceiver } from '@msg/testing';
import got, { type Got } from 'got';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RcsPlatform, rcsPlatforms } from './platform.js';

/**
 * What a customer's receiver does (spec 5 rule 4): the hex HMAC-SHA256 of the raw body with the
 * webhook's secret, compared in constant time. Written here, independently of the service.
 */
function signatureValid(secret: string, received: ReceivedCallback): boolean {
  const given = Buffer.from(String(received.headers['x-webhook-signature'] ?? ''), 'utf8');
  const expected = Buffer.from(
    createHmac('sha256', secret).update(received.body, 'utf8').digest('hex'),
    'utf8',
  );
  return given.length === expected.length && timingSafeEqual(given, expected);
}

type WebhookEvent = Record<string, unknown> & { event_type: string };

/**
 * RCS through the gateway with the simulator in place of Google's RBM platform, started as
 * `pnpm start` starts it (embedded) and as deployed (one process per service, Kafka, Postgres):
 * the client sends as an agent whose credentials are the simulator's service account, and a
 * local receiver gets the agent's webhook events from the notifier.
 */
describe.each(rcsPlatforms)('RCS end to end (%s)', (_name, start) => {
  let platform: RcsPlatform;
  let gateway: Got;
  let rbmControl: Got;
  let receiver: CallbackReceiver;
  let secret: string;
  /** Every event the receiver got, each checked for its signature as it is read. */
  const events = () =>
    receiver.received.map((received) => {
      expect(signatureValid(secret, received), received.body).toBe(true);
      return JSON.parse(received.body) as WebhookEvent;
    });
  const waitForEvent = (
    match: (event: WebhookEvent) => boolean,
    what: string,
    timeoutMs = 30_000,
  ) =>
    expect
      .poll(() => events().find(match), { timeout: timeoutMs, interval: 100, message: what })
      .toBeDefined()
      .then(() => events().find(match) as WebhookEvent);

  const send = async (recipient: string, extra: Record<string, unknown> = {}) => {
    const res = await gateway.post<{ message_id: string }>('rcs/v1/messages', {
      json: { recipient, agent_id: platform.agentId, message: { text: 'Hello' }, ...extra },
    });
    expect(res.statusCode, JSON.stringify(res.body)).toBe(202);
    return res.body.message_id;
  };

  beforeAll(async () => {
    platform = await start();
    receiver = await startCallbackReceiver();
    gateway = got.extend({
      prefixUrl: platform.gatewayUrl,
      headers: { 'x-api-key': platform.client.apiKey, 'x-client-id': platform.client.id },
      throwHttpErrors: false,
      retry: { limit: 0 },
      responseType: 'json',
    });
    rbmControl = got.extend({
      prefixUrl: `${platform.rbmSimulatorUrl}/control`,
      throwHttpErrors: false,
      retry: { limit: 0 },
      responseType: 'json',
    });
    const created = await gateway.post<{ webhook_secret: string }>('v1/webhooks', {
      json: { agent_id: platform.agentId, webhook_url: `${receiver.url}/rcs-events` },
    });
    expect(created.statusCode, JSON.stringify(created.body)).toBe(201);
    secret = created.body.webhook_secret;
  }, 240_000);

  afterAll(async () => {
    await receiver?.close();
    await platform?.stop();
  }, 60_000);

  it('when the platform has started, then the agent holds the RBM credentials of the simulator', async () => {
    const agent = await got(`${platform.rcsUrl}/internal/v1/agents/${platform.agentId}`, {
      headers: { authorization: `Bearer ${platform.adminToken}` },
    }).json<{ has_credentials: boolean; accounts: string[] }>();
    expect(agent.has_credentials).toBe(true);
    const health = await rbmControl.get('stats');
    expect(health.statusCode).toBe(200);
  });

  it('when the health probes are asked through the gateway, then the rcs service answers', async () => {
    const ready = await gateway.get('rcs/v1/health/ready');
    expect(ready.statusCode, JSON.stringify(ready.body)).toBe(200);
    expect(ready.body).toEqual({ message: expect.any(String), status: 'ok' });
  });

  it('when the webhook is tested, then the local receiver answers and the signature holds', async () => {
    const list = await gateway.get<{ id: string }[]>('v1/webhooks', {
      searchParams: { agent_id: platform.agentId },
    });
    const [webhook] = list.body;
    const res = await gateway.post(`v1/webhooks/${webhook?.id}/test`);
    expect(res.body).toMatchObject({ success: true, status_code: 200 });
    await waitForEvent((e) => e.event_type === 'webhook.test', 'the test event');
  });

  it('when a message is dry-run, then exactly one test.rcs.out.delivered reaches the receiver through the notifier', async () => {
    const messageId = await send('+46701740605', { dry_run: true, client_message_id: 'dry-1' });
    const event = await waitForEvent(
      (e) => e.message_id === messageId,
      'test.rcs.out.delivered of the dry run',
    );
    expect(event).toMatchObject({
      event_type: 'test.rcs.out.delivered',
      agent_id: platform.agentId,
      client_message_id: 'dry-1',
      event_id: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
    });
  });

  // Needs the delivery worker (rcs-delivery) and the RBM push endpoint (rcs-inbound).
  it('when a message is sent to a capable phone, then rcs.out.delivered and rcs.out.read reach the receiver', async () => {
    const messageId = await send('+46701740605', { client_message_id: 'live-1' });
    const delivered = await waitForEvent(
      (e) => e.message_id === messageId && e.event_type === 'rcs.out.delivered',
      'rcs.out.delivered',
    );
    expect(delivered).toMatchObject({ agent_id: platform.agentId, client_message_id: 'live-1' });
    await waitForEvent(
      (e) => e.message_id === messageId && e.event_type === 'rcs.out.read',
      'rcs.out.read',
    );
    // The simulator received it as RBM would: our message id is RBM's messageId.
    const received = await rbmControl.get('messages', { searchParams: { phone: '+46701740605' } });
    expect(JSON.stringify(received.body)).toContain(messageId);
  });

  // Needs the delivery worker and capability checker (rcs-delivery).
  it('when a message is sent to a phone without RCS (…999), then rcs.out.failed RECIPIENT_NOT_RCS_CAPABLE', async () => {
    const messageId = await send('+46701740999');
    const failed = await waitForEvent(
      (e) => e.message_id === messageId && e.event_type === 'rcs.out.failed',
      'rcs.out.failed',
    );
    expect(failed.reason).toBe('RECIPIENT_NOT_RCS_CAPABLE');
    expect(
      events().some((e) => e.message_id === messageId && e.event_type === 'rcs.out.delivered'),
    ).toBe(false);
  });

  // Needs the RBM push endpoint (rcs-inbound).
  it('when the user writes to the agent on the simulator, then rcs.in.text reaches the receiver', async () => {
    const injected = await rbmControl.post('users/%2B46701740606/text', {
      json: { agentId: platform.agentId, text: 'Hi from the phone' },
    });
    expect(injected.statusCode, JSON.stringify(injected.body)).toBe(200);
    const event = await waitForEvent(
      (e) => e.event_type === 'rcs.in.text' && e.text === 'Hi from the phone',
      'rcs.in.text',
    );
    expect(event).toMatchObject({
      agent_id: platform.agentId,
      sender_phone_number: '+46701740606',
    });
    // The simulator's pushes went through the set-up handshake and were accepted.
    const stats = (await rbmControl.get<Record<string, number>>('stats')).body;
    expect(stats.handshakes).toBeGreaterThanOrEqual(1);
    expect(stats.pushFailures).toBe(0);
  });

  // Needs the RBM push endpoint (rcs-inbound): routed by the gateway without client credentials.
  it('when a push with a forged X-Goog-Signature arrives through the gateway, then 403', async () => {
    const data = Buffer.from(JSON.stringify({ agentId: platform.agentId, text: 'x' })).toString(
      'base64',
    );
    const res = await got.post(`${platform.gatewayUrl}/rcs/v1/rbm/events`, {
      json: {
        message: { data, messageId: 'forged-1', publishTime: new Date().toISOString() },
        subscription: 'projects/x/subscriptions/y',
      },
      headers: { 'x-goog-signature': Buffer.from('forged').toString('base64') },
      throwHttpErrors: false,
      retry: { limit: 0 },
    });
    expect(res.statusCode).toBe(403);
  });

  it('when a number of 2 to 6 digits is sent, checked or added as a tester through the gateway, then 400 naming the field, never a 500 or an accepted message (issue 23)', async () => {
    for (const short of ['+46', '+999', '+46701']) {
      const sent = await gateway.post<{ details: { errors: { loc: string[] }[] } }>(
        'rcs/v1/messages',
        { json: { recipient: short, agent_id: platform.agentId, message: { text: 'Hi' } } },
      );
      const checked = await gateway.get<{ details: { errors: { loc: string[] }[] } }>(
        'rcs/v1/capabilities',
        { searchParams: { phone: short, agent_id: platform.agentId } },
      );
      const tester = await gateway.post<{ details: { errors: { loc: string[] }[] } }>(
        'rcs/v1/testers',
        { json: { phone_number: short, agent_id: platform.agentId } },
      );
      for (const [res, loc] of [
        [sent, ['body', 'recipient']],
        [checked, ['query', 'phone']],
        [tester, ['body', 'phone_number']],
      ] as const) {
        expect(res.statusCode, `${short} ${loc.join('.')}`).toBe(400);
        expect(res.body.details.errors.map((e) => e.loc)).toEqual([loc]);
      }
    }
  });

  // Needs the capability endpoint (rcs-delivery).
  it('when capability is checked through the gateway, then capable and not capable phones are told apart, and the second answer is cached', async () => {
    const check = (phone: string) =>
      gateway.get('rcs/v1/capabilities', { searchParams: { phone, agent_id: platform.agentId } });
    const capable = await check('+46701740607');
    expect(capable.statusCode, JSON.stringify(capable.body)).toBe(200);
    expect(capable.body).toMatchObject({
      rcs_supported: true,
      phone_number: '+46701740607',
      features: expect.arrayContaining(['RICHCARD', 'ACTION_DIAL']),
      cached: false,
      checked_at: expect.any(String),
    });
    expect((await check('+46701740607')).body).toMatchObject({ cached: true });
    expect((await check('+46701740999')).body).toMatchObject({ rcs_supported: false });
  });
});

import { randomBytes } from 'node:crypto';
import { hashSecret } from '@msg/auth';
import {
  type AccountState,
  makeEvent,
  RCS_EVENT,
  type RcsDomainEvent,
  Topics,
} from '@msg/contracts';
import type { Notifier } from '@msg/notifier';
import {
  type CallbackReceiver,
  eventually,
  headerRecord,
  type ReceivedCallback,
  startCallbackReceiver,
} from '@msg/testing';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY, startTestRcs, type TestRcs } from './support.js';
import { signatureValid } from './webhook-receiver.js';

/**
 * End to end: an event on rcs.events.v1 → the service's fan-out → callbacks.v1 → the notifier →
 * a local receiver that checks X-Webhook-Signature in constant time with the webhook's secret,
 * and the Standard Webhooks signature with the creating account's callback signing secret.
 */
const PASSWORD = 'webhook owner password';
describe('RCS event fan-out to webhooks (spec 4.5 rule 4, 5 rule 4, 6.3)', () => {
  let rcs: TestRcs;
  let notifier: Notifier;
  let owner: AccountState;
  /** Another account that may send as the same agents. */
  let partner: AccountState;
  const receivers: CallbackReceiver[] = [];

  beforeAll(async () => {
    // The test operation calls 127.0.0.1 receivers itself.
    rcs = await startTestRcs({
      perMinute: 100_000,
      env: { RCS_WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
    });
    notifier = await rcs.startNotifier({
      CALLBACK_ALLOWED_HOSTS: '127.0.0.1',
      CALLBACK_RETRY_BASE: '40ms',
      CALLBACK_RETRY_MAX: '150ms',
      NOTIFIER_POLL_MS: '20',
    });
    const passwordHash = await hashSecret(PASSWORD);
    owner = await rcs.publishAccount(rcs.account({ passwordHash }));
    partner = await rcs.publishAccount(rcs.account({ passwordHash }));
  });

  /** The account's callback signing secret, as it fetches it from the notifier. */
  async function signingSecretOf(account: AccountState): Promise<string> {
    const res = await request(notifier.app)
      .get('/v1/callbacks/signing-secret')
      .auth(account.name, PASSWORD)
      .expect(200);
    return res.body.secret;
  }

  function standardSignatureValid(secret: string, got: ReceivedCallback): boolean {
    try {
      new Webhook(secret).verify(got.body, headerRecord(got.headers));
      return true;
    } catch (error) {
      if (error instanceof WebhookVerificationError) return false;
      throw error;
    }
  }

  afterAll(async () => {
    for (const receiver of receivers) await receiver.close();
    await rcs?.stop();
  });

  async function hook(agentId: string, body: object, creator: AccountState = owner) {
    const target = await startCallbackReceiver();
    receivers.push(target);
    const res = await rcs
      .raw()
      .post('/v1/webhooks')
      .set('x-api-key', API_KEY)
      .set('x-client-id', creator.name)
      .send({ agent_id: agentId, webhook_url: `${target.url}/events`, ...body });
    expect(res.status).toBe(201);
    return { target, id: res.body.id as string, secret: res.body.webhook_secret as string };
  }

  async function publish(
    agentId: string,
    eventType: string,
    sender: AccountState = owner,
  ): Promise<RcsDomainEvent> {
    const event: RcsDomainEvent = {
      agentId,
      accountId: sender.id,
      messageId: 'msg-1',
      event: {
        event_type: eventType,
        agent_id: agentId,
        send_time: new Date().toISOString(),
        event_id: `evt_${randomBytes(8).toString('hex')}`,
        message_id: 'msg-1',
        text: 'héllo "quoted" ✓',
      },
    };
    await rcs.bus.publish(Topics.rcsEvents, [
      { key: agentId, value: makeEvent(RCS_EVENT, event, { accountId: sender.id }) },
    ]);
    return event;
  }

  async function requestsFor(eventId: string): Promise<string[]> {
    const { rows } = await rcs.runtime.pool.query<{ url: string }>(
      `SELECT "url" FROM "notifier"."callback" WHERE "callback_id" LIKE $1 ORDER BY "url"`,
      [`rcs:${eventId}:%`],
    );
    return rows.map((row) => row.url);
  }

  it('when an event is published, then every enabled matching webhook gets it signed with its own secret, and no other webhook is called', async () => {
    const agent = 'fanout-agent-1';
    await rcs.agent(agent, [owner]);
    const all = await hook(agent, {});
    const secondVocabulary = await hook(agent, { enabled_events: ['message.delivered'] });
    const disabled = await hook(agent, { is_enabled: false });
    const otherEvents = await hook(agent, { enabled_events: ['rcs.out.read', 'rcs.in.text'] });

    const event = await publish(agent, 'rcs.out.delivered');
    await eventually(
      async () =>
        (all.target.received.length >= 1 && secondVocabulary.target.received.length >= 1) ||
        undefined,
      'both matching webhooks called',
    );
    const ownerSecret = await signingSecretOf(owner);
    for (const { target, secret } of [all, secondVocabulary]) {
      const [got] = target.received;
      expect(got && signatureValid(secret, got)).toBe(true);
      expect(got && standardSignatureValid(ownerSecret, got)).toBe(true);
      expect(got?.headers['content-type']).toBe('application/json');
      expect(JSON.parse(got?.body ?? '')).toEqual(event.event);
    }
    // The fan-out asks for all of an event's deliveries at once: these are all there will be.
    expect(await requestsFor(event.event.event_id)).toEqual(
      [`${all.target.url}/events`, `${secondVocabulary.target.url}/events`].sort(),
    );
    expect(disabled.target.received).toHaveLength(0);
    expect(otherEvents.target.received).toHaveLength(0);
    // One webhook's signature does not hold under another's secret.
    const [first] = all.target.received;
    expect(first && signatureValid(secondVocabulary.secret, first)).toBe(false);
  });

  it('when the secret was regenerated, then later events are signed with the new one only', async () => {
    const agent = 'fanout-agent-2';
    await rcs.agent(agent, [owner]);
    const target = await hook(agent, { enabled_events: ['rcs.in.text'] });
    const regenerated = await rcs
      .raw()
      .post(`/v1/webhooks/${target.id}/regenerate-secret`)
      .set('x-api-key', API_KEY)
      .set('x-client-id', owner.name);
    expect(regenerated.status).toBe(200);
    await publish(agent, 'rcs.in.text');
    await eventually(async () => target.target.received.length >= 1 || undefined, 'webhook called');
    const [got] = target.target.received;
    expect(got && signatureValid(regenerated.body.webhook_secret, got)).toBe(true);
    expect(got && signatureValid(target.secret, got)).toBe(false);
  });

  it("when another account's message event reaches a webhook, then it is signed with the webhook creator's callback secret, not the sender's", async () => {
    const agent = 'fanout-agent-4';
    await rcs.agent(agent, [owner, partner]);
    const owners = await hook(agent, {});
    const partners = await hook(agent, {}, partner);
    await publish(agent, 'rcs.out.delivered', partner);
    await eventually(
      async () =>
        (owners.target.received.length >= 1 && partners.target.received.length >= 1) || undefined,
      'both webhooks called',
    );
    const [ownerSecret, partnerSecret] = [
      await signingSecretOf(owner),
      await signingSecretOf(partner),
    ];
    const [toOwner] = owners.target.received;
    const [toPartner] = partners.target.received;
    expect(toOwner && standardSignatureValid(ownerSecret, toOwner)).toBe(true);
    expect(toOwner && standardSignatureValid(partnerSecret, toOwner)).toBe(false);
    expect(toPartner && standardSignatureValid(partnerSecret, toPartner)).toBe(true);
    expect(toPartner && standardSignatureValid(ownerSecret, toPartner)).toBe(false);
  });

  it('when a dry-run simulated event is published, then a webhook subscribed to rcs.out.delivered gets it', async () => {
    const agent = 'fanout-agent-3';
    await rcs.agent(agent, [owner]);
    const target = await hook(agent, { enabled_events: ['rcs.out.delivered'] });
    const event = await publish(agent, 'test.rcs.out.delivered');
    await eventually(async () => target.target.received.length >= 1 || undefined, 'webhook called');
    expect(JSON.parse(target.target.received[0]?.body ?? '').event_id).toBe(event.event.event_id);
  });
  it("when the webhook test operation runs, then the test event carries X-Webhook-Signature with the webhook's secret and the Standard Webhooks signature with its creator's callback secret (issue 23 item 4)", async () => {
    const agent = 'fanout-agent-test-event';
    await rcs.agent(agent, [owner, partner]);
    const webhook = await hook(agent, {});
    const res = await rcs
      .raw()
      .post(`/v1/webhooks/${webhook.id}/test`)
      .set('x-api-key', API_KEY)
      .set('x-client-id', partner.name);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const [received] = webhook.target.received;
    if (!received) throw new Error('the test event did not arrive');
    expect(signatureValid(webhook.secret, received)).toBe(true);
    expect(received.headers['webhook-id']).toEqual(expect.any(String));
    expect(standardSignatureValid(await signingSecretOf(owner), received)).toBe(true);
    expect(standardSignatureValid(await signingSecretOf(partner), received)).toBe(false);
  });
});

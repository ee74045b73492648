import { randomUUID } from 'node:crypto';
import type { AccountState } from '@msg/contracts';
import {
  type EventEnvelope,
  makeEvent,
  RCS_OUTBOUND_EVENT,
  type RcsOutbound,
  Topics,
} from '@msg/contracts';
import { eventually } from '@msg/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_ACCOUNT, startTestRcs, type TestRcs } from './support.js';

const CAPABLE = '+447700900123';
const NOT_CAPABLE = '+447700900999';

interface SimMessage {
  messageId: string;
  agentId: string;
  status: string;
  body: Record<string, unknown>;
}

describe('delivery worker: rcs.outbound.v1 → RBM (simulator)', () => {
  let rcs: TestRcs;
  let acct: AccountState;

  beforeAll(async () => {
    rcs = await startTestRcs();
    acct = await rcs.publishAccount(rcs.account());
    await rcs.agent('deliver-agent', [acct], { credentials: SERVICE_ACCOUNT });
  });
  afterAll(async () => {
    await rcs?.stop();
  });

  const stateOf = async (messageId: string) =>
    (
      await rcs.pool.query<{ state: string }>(
        `SELECT "state" FROM "rcs"."messages" WHERE "id" = $1`,
        [messageId],
      )
    ).rows[0]?.state;
  const reaches = (messageId: string, state: string) =>
    eventually(async () => ((await stateOf(messageId)) === state ? state : undefined), `${state}`);
  const received = async (messageId: string): Promise<SimMessage[]> => {
    const { body } = await rcs.rbmControl('GET', '/messages');
    return (body.messages as SimMessage[]).filter((m) => m.messageId === messageId);
  };
  const failedEvent = (messageId: string) => rcs.eventAbout(messageId);
  const send = async (recipient: string, message: object, agent = 'deliver-agent') => {
    const res = await rcs.send(acct, {
      recipient,
      agent_id: agent,
      message,
      client_message_id: 'client-1',
    });
    expect(res.status).toBe(202);
    return res.body.message_id as string;
  };

  it('when a message is accepted, then RBM receives it under our message id, mapped to camelCase, and the state is sent', async () => {
    const messageId = await send(CAPABLE, {
      rich_card: {
        standalone_card: {
          card_orientation: 'HORIZONTAL',
          thumbnail_image_alignment: 'LEFT',
          card_content: {
            title: 'Order',
            media: {
              height: 'MEDIUM',
              content_info: { file_url: 'https://example.com/a.png', force_refresh: true },
            },
            suggestions: [
              {
                action: {
                  text: 'Call',
                  postback_data: 'call',
                  dial_action: { phone_number: '+15551234567' },
                },
              },
            ],
          },
        },
      },
      suggestions: [{ reply: { text: 'Yes', postback_data: 'yes' } }],
    });
    await reaches(messageId, 'sent');
    const [got] = await received(messageId);
    expect(got).toMatchObject({ agentId: 'deliver-agent', status: 'PENDING' });
    expect(got?.body).toEqual({
      contentMessage: {
        richCard: {
          standaloneCard: {
            cardOrientation: 'HORIZONTAL',
            thumbnailImageAlignment: 'LEFT',
            cardContent: {
              title: 'Order',
              media: {
                height: 'MEDIUM',
                contentInfo: { fileUrl: 'https://example.com/a.png', forceRefresh: true },
              },
              suggestions: [
                {
                  action: {
                    text: 'Call',
                    postbackData: 'call',
                    dialAction: { phoneNumber: '+15551234567' },
                  },
                },
              ],
            },
          },
        },
        suggestions: [{ reply: { text: 'Yes', postbackData: 'yes' } }],
      },
      messageTrafficType: 'TRANSACTION',
    });
  });

  it('when the recipient is not RCS-capable, then state failed and one rcs.out.failed RECIPIENT_NOT_RCS_CAPABLE', async () => {
    const messageId = await send(NOT_CAPABLE, { text: 'Hello' });
    const event = await failedEvent(messageId);
    expect(event).toEqual({
      event_type: 'rcs.out.failed',
      agent_id: 'deliver-agent',
      send_time: expect.any(String),
      event_id: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
      message_id: messageId,
      client_message_id: 'client-1',
      reason: 'RECIPIENT_NOT_RCS_CAPABLE',
    });
    expect(await stateOf(messageId)).toBe('failed');
    expect(await received(messageId)).toEqual([]);
  });

  it('when RBM refuses the message (400), then state failed and rcs.out.failed RBM_REJECTED', async () => {
    // A message the intake never produces (a member RBM does not know), queued directly.
    const messageId = randomUUID();
    await rcs.pool.query(
      `INSERT INTO "rcs"."messages" ("id", "account_id", "agent_id", "recipient", "traffic_type",
         "content", "dry_run", "state", "created_at")
       VALUES ($1, $2, 'deliver-agent', $3, 'TRANSACTION', '{}', false, 'queued', now())`,
      [messageId, acct.id, CAPABLE],
    );
    const outbound: RcsOutbound = {
      messageId,
      accountId: acct.id,
      agentId: 'deliver-agent',
      recipient: CAPABLE,
      messageTrafficType: 'TRANSACTION',
      clientMessageId: null,
      content: { text: 'Hi', colour_scheme: 'red' },
      acceptedAt: new Date().toISOString(),
    };
    await rcs.bus.publish(Topics.rcsOutbound, [
      { key: 'deliver-agent', value: makeEvent(RCS_OUTBOUND_EVENT, outbound) as EventEnvelope },
    ]);
    const event = await failedEvent(messageId);
    expect(event).toMatchObject({ event_type: 'rcs.out.failed', reason: 'RBM_REJECTED' });
    expect(event.client_message_id).toBeUndefined();
    expect(await stateOf(messageId)).toBe('failed');
  });

  it("when RBM refuses the agent's credentials, then RBM_REJECTED; without credentials AGENT_NOT_CONFIGURED", async () => {
    const { generateKeyPairSync } = await import('node:crypto');
    const otherKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
      type: 'pkcs8',
      format: 'pem',
    });
    await rcs.agent('deliver-wrong-key', [acct], {
      credentials: { ...SERVICE_ACCOUNT, private_key: otherKey },
    });
    await rcs.agent('deliver-no-key', [acct]);
    const wrong = await send(CAPABLE, { text: 'Hello' }, 'deliver-wrong-key');
    const none = await send(CAPABLE, { text: 'Hello' }, 'deliver-no-key');
    expect(await failedEvent(wrong)).toMatchObject({ reason: 'RBM_REJECTED' });
    expect(await failedEvent(none)).toMatchObject({ reason: 'AGENT_NOT_CONFIGURED' });
  });

  it('when RBM is down, then the message is retried and delivered once it is up, exactly once', async () => {
    await rcs.rbmDown();
    let messageId: string;
    try {
      messageId = await send('+447700900321', { text: 'Patience' });
      // Several retries fail meanwhile; the message stays queued, nothing is lost.
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(await stateOf(messageId)).toBe('queued');
    } finally {
      await rcs.rbmUp();
    }
    await reaches(messageId, 'sent');
    expect(await received(messageId)).toHaveLength(1);
  });

  it('when the outbound event is delivered again, then RBM gets the message once', async () => {
    const messageId = await send(CAPABLE, { text: 'Once' });
    await reaches(messageId, 'sent');
    const [original] = await rcs.publishedAbout(Topics.rcsOutbound, messageId);
    const stats = async () => (await rcs.rbmControl('GET', '/stats')).body;
    const before = await stats();
    // Redelivered after the outcome was recorded: the stored state says it is done.
    await rcs.bus.publish(Topics.rcsOutbound, [
      { key: 'deliver-agent', value: original?.value as EventEnvelope },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Redelivered before the outcome was recorded (crash between RBM's answer and the commit):
    // RBM answers 409 ALREADY_EXISTS for our message id, which counts as sent.
    await rcs.pool.query(`UPDATE "rcs"."messages" SET "state" = 'queued' WHERE "id" = $1`, [
      messageId,
    ]);
    await rcs.bus.publish(Topics.rcsOutbound, [
      { key: 'deliver-agent', value: original?.value as EventEnvelope },
    ]);
    // Back to sent without RBM accepting a second message: the worker took the 409 as sent.
    await reaches(messageId, 'sent');
    expect((await stats()).messagesAccepted).toBe(before.messagesAccepted);
    expect(await received(messageId)).toHaveLength(1);
  });
  it('when messages were handled, then /metrics counts them by outcome', async () => {
    const text = (await rcs.raw().get('/metrics')).text;
    for (const outcome of [
      'sent',
      'retry',
      'duplicate',
      'RECIPIENT_NOT_RCS_CAPABLE',
      'RBM_REJECTED',
    ]) {
      expect(text).toMatch(
        new RegExp(`rcs_delivery_outcomes_total\\{[^}]*outcome="${outcome}"[^}]*\\} [1-9]`),
      );
    }
  });
});

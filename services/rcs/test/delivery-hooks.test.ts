import { randomUUID } from 'node:crypto';
import type { RcsOutbound } from '@msg/contracts';
import { createLogger } from '@msg/logger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCapabilityChecker } from '../src/capability/index.js';
import {
  createDeliveryHandler,
  createOutcomeStore,
  type SmsFallback,
} from '../src/delivery/index.js';
import { SERVICE_ACCOUNT, startTestRcs, type TestRcs } from './support.js';

/**
 * The worker's optional dependencies (rcs-inbound's unsubscribe check, rcs-fallback's SMS
 * fallback), given to the handler directly: the service wires them once both exist.
 */
describe('delivery handler hooks: unsubscribed, SMS fallback, ttl', () => {
  let rcs: TestRcs;
  let accountId: string;

  beforeAll(async () => {
    rcs = await startTestRcs();
    const acct = await rcs.publishAccount(rcs.account());
    accountId = acct.id;
    await rcs.agent('hooks-agent', [acct], { credentials: SERVICE_ACCOUNT });
  });
  afterAll(async () => {
    await rcs?.stop();
  });

  const handler = (extra: {
    isUnsubscribed?: (agentId: string, phone: string) => Promise<boolean>;
    smsFallback?: SmsFallback;
  }) => {
    const rbm = rcs.rbmClients();
    return createDeliveryHandler({
      outcomes: createOutcomeStore(rcs.pool),
      capability: createCapabilityChecker({ pool: rcs.pool, rbm }),
      rbm,
      logger: createLogger({ service: 'test', level: 'error' }),
      signal: new AbortController().signal,
      retry: { initialMs: 10, maxMs: 10 },
      ...extra,
    });
  };

  /** A queued message, as the intake stores it (not published: the handler is called here). */
  async function queued(recipient: string, extra: object = {}) {
    const messageId = randomUUID();
    await rcs.pool.query(
      `INSERT INTO "rcs"."messages" ("id", "account_id", "agent_id", "recipient", "traffic_type",
         "content", "dry_run", "state", "created_at")
       VALUES ($1, $2, 'hooks-agent', $3, 'TRANSACTION', '{"text":"Hi"}', false, 'queued', now())`,
      [messageId, accountId, recipient],
    );
    return {
      messageId,
      accountId,
      agentId: 'hooks-agent',
      recipient,
      messageTrafficType: 'TRANSACTION',
      clientMessageId: 'c-1',
      content: { text: 'Hi' },
      acceptedAt: new Date().toISOString(),
      ...extra,
    } satisfies RcsOutbound;
  }
  const stateOf = async (id: string) =>
    (await rcs.pool.query(`SELECT "state" FROM "rcs"."messages" WHERE "id" = $1`, [id])).rows[0]
      ?.state;

  it('when the user unsubscribed after the send was accepted, then rcs.out.failed RECIPIENT_UNSUBSCRIBED and nothing is sent', async () => {
    const asked: string[] = [];
    const message = await queued('+447700900777');
    await handler({
      isUnsubscribed: async (agentId, phone) => {
        asked.push(`${agentId} ${phone}`);
        return true;
      },
    })(message);
    expect(asked).toEqual(['hooks-agent +447700900777']);
    expect(await stateOf(message.messageId)).toBe('failed');
    expect(await rcs.eventAbout(message.messageId)).toMatchObject({
      event_type: 'rcs.out.failed',
      reason: 'RECIPIENT_UNSUBSCRIBED',
      client_message_id: 'c-1',
    });
  });

  it('when not capable and the message carries sms_fallback, then the fallback gets it and no rcs.out.failed is produced', async () => {
    const calls: unknown[] = [];
    const fallback: SmsFallback = {
      send: async (message, cause) => {
        calls.push({ message, cause });
      },
    };
    const message = await queued('+447700900999', {
      smsFallback: { sender: 'Shop', text: 'Hi by SMS' },
    });
    await handler({ smsFallback: fallback })(message);
    expect(calls).toEqual([
      {
        message: {
          id: message.messageId,
          accountId,
          agentId: 'hooks-agent',
          recipient: '+447700900999',
          clientMessageId: 'c-1',
          smsFallback: { sender: 'Shop', text: 'Hi by SMS' },
        },
        cause: 'not_capable',
      },
    ]);
    // The fallback owns the state and events from here.
    expect(await stateOf(message.messageId)).toBe('queued');
  });

  it('when not capable and no sms_fallback is carried, then the fallback is not called', async () => {
    const calls: unknown[] = [];
    const message = await queued('+447700900999');
    await handler({ smsFallback: { send: async (...args) => void calls.push(args) } })(message);
    expect(calls).toEqual([]);
    expect(await stateOf(message.messageId)).toBe('failed');
  });

  it('when the message carries ttlSeconds, then RBM gets it as ttl', async () => {
    const message = await queued('+447700900124', { ttlSeconds: 600 });
    await handler({})(message);
    expect(await stateOf(message.messageId)).toBe('sent');
    const { body } = await rcs.rbmControl('GET', '/messages');
    const sent = (body.messages as { messageId: string; body: { ttl?: string } }[]).find(
      (m) => m.messageId === message.messageId,
    );
    expect(sent?.body.ttl).toBe('600s');
  });
});

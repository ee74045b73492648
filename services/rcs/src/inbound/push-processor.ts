import { randomUUID } from 'node:crypto';
import { enqueueOutbox } from '@msg/bus';
import { makeEvent, RCS_EVENT, type RcsDomainEvent, Topics } from '@msg/contracts';
import { withTransaction } from '@msg/db';
import { classifyInbound } from '@msg/optout';
import type { RbmPushEvent, RbmServerEvent, RbmUserEvent } from '@msg/rbm';
import type pg from 'pg';
import { RCS_SCHEMA } from '../schema.js';
import { markSubscribed, markUnsubscribed } from '../subscriptions/subscription-store.js';
import {
  type PlannedEvent,
  pushEventId,
  pushIdOf,
  sendTimeOf,
  userMessageEvent,
} from './event-mapping.js';
import type { PushOutcome } from './push-metrics.js';
import { type StatusChange, statusChange } from './status-change.js';

/** RBM's own events (TTL expiry) go to whoever owns them, inside the push's transaction. */
export type ServerEventHook = (event: RbmServerEvent, client: pg.PoolClient) => Promise<void>;

export interface PushProcessorDeps {
  pool: pg.Pool;
  serverEvents?: ServerEventHook;
  now?: () => Date;
}

const AGENTS = `"${RCS_SCHEMA}"."agents"`;
const PUSHES = `"${RCS_SCHEMA}"."rbm_pushes"`;

/**
 * Turns one verified RBM push into what it means, in ONE transaction: the push is remembered
 * (a redelivery is then a 'duplicate' and changes nothing), the message state or subscription
 * changes, and the events for rcs.events.v1 go into the outbox. The caller acknowledges RBM only
 * once this resolved: what RBM handed over is durable.
 */
export function createPushProcessor({
  pool,
  serverEvents,
  now = () => new Date(),
}: PushProcessorDeps) {
  return async function process(event: RbmPushEvent, traceId?: string): Promise<PushOutcome> {
    const agentId = event.agentId;
    if (agentId === undefined) return 'unknown_agent';
    const pushId = pushIdOf(event);
    return withTransaction(pool, async (client) => {
      const agent = await client.query(`SELECT 1 FROM ${AGENTS} WHERE "id" = $1`, [agentId]);
      if (agent.rowCount === 0) return 'unknown_agent';
      if (pushId !== undefined) {
        const fresh = await client.query(
          `INSERT INTO ${PUSHES} ("push_id") VALUES ($1) ON CONFLICT ("push_id") DO NOTHING`,
          [pushId],
        );
        if (fresh.rowCount === 0) return 'duplicate';
      }
      if (event.kind === 'server') {
        await serverEvents?.(event, client);
        return 'server';
      }
      const publish = async (planned: PlannedEvent[], change?: StatusChange) => {
        const at = now();
        const sendTime = sendTimeOf(event, at);
        // Without any id from RBM the push cannot be deduplicated: a random key, one occurrence each.
        const key = pushId ?? randomUUID();
        const context = {
          ...(change?.accountId !== undefined && { accountId: change.accountId }),
          ...(traceId !== undefined && { traceId }),
        };
        await enqueueOutbox(
          client,
          RCS_SCHEMA,
          Topics.rcsEvents,
          planned.map((p, i) => {
            const domain: RcsDomainEvent = {
              agentId,
              ...(change && { accountId: change.accountId, messageId: change.messageId }),
              event: {
                event_type: p.type,
                agent_id: agentId,
                send_time: sendTime,
                event_id: pushEventId(key, i === 0 ? undefined : p.type),
                ...p.body,
              },
            };
            return { key: agentId, value: makeEvent(RCS_EVENT, domain, context) };
          }),
        );
        return planned[0]?.type as PushOutcome;
      };
      return handleUserEvent(client, agentId, event, publish);
    });
  };
}

type Publish = (planned: PlannedEvent[], change?: StatusChange) => Promise<PushOutcome>;

async function handleUserEvent(
  client: pg.PoolClient,
  agentId: string,
  event: RbmUserEvent,
  publish: Publish,
): Promise<PushOutcome> {
  const phone = event.senderPhoneNumber;
  const subscription = (type: 'rcs.sub.subscribed' | 'rcs.sub.unsubscribed'): PlannedEvent => ({
    type,
    body: { sender_phone_number: phone },
  });
  if (event.kind === 'status') {
    switch (event.eventType) {
      case 'IS_TYPING':
        return 'typing';
      case 'SUBSCRIBE':
        await markSubscribed(client, agentId, phone);
        return publish([subscription('rcs.sub.subscribed')]);
      case 'UNSUBSCRIBE':
        await markUnsubscribed(client, agentId, phone, 'event');
        return publish([subscription('rcs.sub.unsubscribed')]);
      default: {
        const change = await statusChange(client, agentId, event.eventType, event.messageId);
        if (change.outcome !== 'changed') return change.outcome;
        return publish(
          [
            {
              type: event.eventType === 'DELIVERED' ? 'rcs.out.delivered' : 'rcs.out.read',
              body: {
                message_id: change.messageId,
                ...(change.clientMessageId !== null && {
                  client_message_id: change.clientMessageId,
                }),
                sender_phone_number: phone,
              },
            },
          ],
          change,
        );
      }
    }
  }
  const planned = userMessageEvent(event);
  if (!planned) return 'unsupported';
  if (event.kind === 'text') {
    // Spec 6.3: a stop word is an unsubscribe, honoured at once; both events may arrive.
    const keyword = classifyInbound(event.text);
    if (keyword?.kind === 'stop') {
      await markUnsubscribed(client, agentId, phone, 'keyword');
      return publish([planned, subscription('rcs.sub.unsubscribed')]);
    }
    if (keyword?.kind === 'start' && (await markSubscribed(client, agentId, phone))) {
      return publish([planned, subscription('rcs.sub.subscribed')]);
    }
  }
  return publish([planned]);
}

export type PushProcessor = ReturnType<typeof createPushProcessor>;

import { randomBytes, randomUUID } from 'node:crypto';
import { enqueueOutbox } from '@msg/bus';
import {
  makeEvent,
  RCS_EVENT,
  RCS_OUTBOUND_EVENT,
  type RcsDomainEvent,
  type RcsOutbound,
  type RcsTrafficType,
  Topics,
} from '@msg/contracts';
import { withTransaction } from '@msg/db';
import type pg from 'pg';
import { RCS_SCHEMA } from '../schema.js';

/** A send that passed validation and authorisation. */
export interface AcceptedMessage {
  accountId: string;
  agentId: string;
  recipient: string;
  clientMessageId: string | null;
  trafficType: RcsTrafficType;
  /** The request's `message`, as validated (unknown members dropped). */
  content: Record<string, unknown>;
  dryRun: boolean;
  /** The SMS sent when it cannot go over RCS (accounts with fallback enabled); null: none. */
  smsFallback: FallbackSms | null;
  /** The request's `ttl` in seconds; null: RBM's default. */
  ttlSeconds: number | null;
  traceId?: string;
}

/**
 * The SMS a message carries for when it cannot go over RCS (its `sms_fallback`): the content only;
 * what sends it is delivery's `SmsFallback`.
 */
export interface FallbackSms {
  sender: string;
  text: string;
}

export interface MessageStoreOptions {
  now?: () => Date;
  /**
   * How long a message with a fallback but no `ttl` may stay undelivered before the TTL sweeper
   * revokes it and sends the SMS (RCS_SMS_FALLBACK_TTL); without it such messages never expire.
   */
  fallbackTtlSeconds?: number;
}

/**
 * When the TTL sweeper revokes the message if RBM has not delivered it: the `ttl`, else for a
 * message with a fallback the fallback TTL, counted from acceptance; null: never.
 */
export function expiryOf(
  message: Pick<AcceptedMessage, 'smsFallback' | 'ttlSeconds'>,
  acceptedAt: Date,
  fallbackTtlSeconds: number | undefined,
): Date | null {
  const seconds =
    message.ttlSeconds ?? (message.smsFallback !== null ? fallbackTtlSeconds : undefined);
  return seconds === undefined ? null : new Date(acceptedAt.getTime() + seconds * 1000);
}

/** `evt_` + 128 random bits (hex): unique per event occurrence, for the receiver's dedupe. */
export const newEventId = () => `evt_${randomBytes(16).toString('hex')}`;

/**
 * Stores an accepted message and, in the same transaction, what it leads to: the message for the
 * delivery worker on rcs.outbound.v1, or for a dry run exactly one `test.rcs.out.delivered` on
 * rcs.events.v1 (spec 6.3). Both keyed by agent id. Answers the message id.
 */
export function createMessageStore(pool: pg.Pool, options: MessageStoreOptions = {}) {
  const now = options.now ?? (() => new Date());
  return {
    async accept(message: AcceptedMessage): Promise<string> {
      const id = randomUUID();
      const acceptedAt = now();
      const at = acceptedAt.toISOString();
      const expiresAt = message.dryRun
        ? null
        : expiryOf(message, acceptedAt, options.fallbackTtlSeconds);
      const context = {
        accountId: message.accountId,
        ...(message.traceId && { traceId: message.traceId }),
      };
      await withTransaction(pool, async (client) => {
        await client.query(
          `INSERT INTO "${RCS_SCHEMA}"."messages" ("id", "account_id", "agent_id", "recipient",
             "client_message_id", "traffic_type", "content", "dry_run", "state", "created_at",
             "sms_fallback", "ttl_seconds", "expires_at")
           VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $10, $11::jsonb, $12, $13)`,
          [
            id,
            message.accountId,
            message.agentId,
            message.recipient,
            message.clientMessageId,
            message.trafficType,
            JSON.stringify(message.content),
            message.dryRun,
            message.dryRun ? 'simulated' : 'queued',
            at,
            message.smsFallback && JSON.stringify(message.smsFallback),
            message.ttlSeconds,
            expiresAt,
          ],
        );
        if (message.dryRun) {
          const event: RcsDomainEvent = {
            agentId: message.agentId,
            accountId: message.accountId,
            messageId: id,
            event: {
              event_type: 'test.rcs.out.delivered',
              agent_id: message.agentId,
              send_time: at,
              event_id: newEventId(),
              message_id: id,
              ...(message.clientMessageId !== null && {
                client_message_id: message.clientMessageId,
              }),
            },
          };
          await enqueueOutbox(client, RCS_SCHEMA, Topics.rcsEvents, [
            { key: message.agentId, value: makeEvent(RCS_EVENT, event, context) },
          ]);
          return;
        }
        const outbound: RcsOutbound = {
          messageId: id,
          accountId: message.accountId,
          agentId: message.agentId,
          recipient: message.recipient,
          messageTrafficType: message.trafficType,
          clientMessageId: message.clientMessageId,
          content: message.content,
          acceptedAt: at,
          smsFallback: message.smsFallback,
          ttlSeconds: message.ttlSeconds,
        };
        await enqueueOutbox(client, RCS_SCHEMA, Topics.rcsOutbound, [
          { key: message.agentId, value: makeEvent(RCS_OUTBOUND_EVENT, outbound, context) },
        ]);
      });
      return id;
    },
  };
}

export type MessageStore = ReturnType<typeof createMessageStore>;

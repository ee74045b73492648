import { createHash } from 'node:crypto';
import { enqueueOutbox } from '@msg/bus';
import { makeEvent, RCS_EVENT, type RcsDomainEvent, Topics } from '@msg/contracts';
import type { Sql } from '@msg/db';
import { RCS_SCHEMA } from '../schema.js';

/** What an outcome event names of its message. */
export interface MessageRef {
  id: string;
  accountId: string;
  agentId: string;
  clientMessageId: string | null;
}

/** `rcs.out.failed` reasons this module gives (spec 6.3 allows new values). */
export type FallbackFailure = 'SMS_FALLBACK_REJECTED' | 'SMS_FALLBACK_FAILED' | 'TTL_EXPIRED';

/**
 * States after which nothing of this module changes a message any more: it reached the phone,
 * it already fell back or failed, or it was never sent (dry run). `fallback_sms` may still become
 * `failed` when the SMS centre fails the SMS (the status consumer's own transition).
 */
export const SETTLED_STATES = ['delivered', 'read', 'fallback_sms', 'failed', 'simulated'];

/**
 * `evt_` + the first 32 hex of sha256(message id, event type, reason): one occurrence per message
 * and outcome, so a redelivered trigger that gets this far publishes the same event id.
 */
export function outcomeEventId(messageId: string, eventType: string, reason = ''): string {
  const digest = createHash('sha256').update(`${messageId}\n${eventType}\n${reason}`).digest('hex');
  return `evt_${digest.slice(0, 32)}`;
}

/** Enqueues one outcome event of `message` on rcs.events.v1 (keyed by agent) in `sql`'s transaction. */
export async function enqueueOutcome(
  sql: Sql,
  message: MessageRef,
  eventType: 'sms.out.sent' | 'rcs.out.failed',
  at: Date,
  extra: { reason?: FallbackFailure; sms_transaction_id?: string },
  traceId?: string,
): Promise<void> {
  const event: RcsDomainEvent = {
    agentId: message.agentId,
    accountId: message.accountId,
    messageId: message.id,
    event: {
      event_type: eventType,
      agent_id: message.agentId,
      send_time: at.toISOString(),
      event_id: outcomeEventId(message.id, eventType, extra.reason),
      message_id: message.id,
      ...(message.clientMessageId !== null && { client_message_id: message.clientMessageId }),
      ...extra,
    },
  };
  await enqueueOutbox(sql, RCS_SCHEMA, Topics.rcsEvents, [
    {
      key: message.agentId,
      value: makeEvent(RCS_EVENT, event, {
        accountId: message.accountId,
        ...(traceId && { traceId }),
      }),
    },
  ]);
}

/**
 * Locks the message row and answers its state and fallback SMS id (undefined: no such message).
 * Every transition of this module runs after it, so two triggers of one message (a redelivery,
 * the sweeper and the delivery worker) serialise and the second sees the first's outcome.
 */
export async function lockMessage(
  sql: Sql,
  messageId: string,
): Promise<{ state: string; smsTransactionId: string | null } | undefined> {
  const { rows } = await sql.query<{ state: string; sms_transaction_id: string | null }>(
    `SELECT "state", "sms_transaction_id" FROM "${RCS_SCHEMA}"."messages" WHERE "id" = $1 FOR UPDATE`,
    [messageId],
  );
  const row = rows[0];
  return row && { state: row.state, smsTransactionId: row.sms_transaction_id };
}

/** Marks the message failed with `reason` and enqueues its rcs.out.failed (in `sql`'s transaction). */
export async function failMessage(
  sql: Sql,
  message: MessageRef,
  reason: FallbackFailure,
  at: Date,
): Promise<void> {
  await sql.query(
    `UPDATE "${RCS_SCHEMA}"."messages" SET "state" = 'failed', "failure_reason" = $2,
            "expires_at" = NULL
      WHERE "id" = $1`,
    [message.id, reason],
  );
  await enqueueOutcome(sql, message, 'rcs.out.failed', at, { reason });
}

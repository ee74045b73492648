import { enqueueOutbox } from '@msg/bus';
import { makeEvent, RCS_EVENT, type RcsDomainEvent, Topics } from '@msg/contracts';
import { withTransaction } from '@msg/db';
import type pg from 'pg';
import { newEventId } from '../messages/message-store.js';
import { RCS_SCHEMA } from '../schema.js';

/** `rcs.out.failed.reason` values the worker produces (the shared list in the README). */
export type DeliveryFailureReason =
  | 'RECIPIENT_NOT_RCS_CAPABLE'
  | 'RBM_REJECTED'
  | 'RECIPIENT_UNSUBSCRIBED'
  | 'AGENT_NOT_CONFIGURED';

/** What the outcome concerns: the message as the outbound event described it. */
export interface DeliveredMessage {
  messageId: string;
  accountId: string;
  agentId: string;
  clientMessageId: string | null;
}

const MESSAGES = `"${RCS_SCHEMA}"."messages"`;

/**
 * The worker's state changes of rcs.messages. Each moves a message only out of `queued` (states
 * only go forward: a message a DELIVERED push already moved on is left alone), and a failure's
 * `rcs.out.failed` event goes through the outbox in the same transaction, so the event exists
 * exactly when the state says failed.
 */
export function createOutcomeStore(pool: pg.Pool, now: () => Date = () => new Date()) {
  return {
    /** The message's state, or undefined when no such message is stored. */
    async state(messageId: string): Promise<string | undefined> {
      const { rows } = await pool.query<{ state: string }>(
        `SELECT "state" FROM ${MESSAGES} WHERE "id" = $1`,
        [messageId],
      );
      return rows[0]?.state;
    },

    /** RBM accepted it (or had it already: 409). */
    async markSent(messageId: string): Promise<void> {
      await pool.query(
        `UPDATE ${MESSAGES} SET "state" = 'sent' WHERE "id" = $1 AND "state" = 'queued'`,
        [messageId],
      );
    },

    /** Final failure: state `failed` and one rcs.out.failed event naming the reason. */
    async markFailed(
      message: DeliveredMessage,
      reason: DeliveryFailureReason,
      traceId?: string,
    ): Promise<boolean> {
      return withTransaction(pool, async (client) => {
        const updated = await client.query(
          `UPDATE ${MESSAGES} SET "state" = 'failed' WHERE "id" = $1 AND "state" = 'queued'`,
          [message.messageId],
        );
        if (updated.rowCount === 0) return false;
        const event: RcsDomainEvent = {
          agentId: message.agentId,
          accountId: message.accountId,
          messageId: message.messageId,
          event: {
            event_type: 'rcs.out.failed',
            agent_id: message.agentId,
            send_time: now().toISOString(),
            event_id: newEventId(),
            message_id: message.messageId,
            ...(message.clientMessageId !== null && {
              client_message_id: message.clientMessageId,
            }),
            reason,
          },
        };
        const context = { accountId: message.accountId, ...(traceId && { traceId }) };
        await enqueueOutbox(client, RCS_SCHEMA, Topics.rcsEvents, [
          { key: message.agentId, value: makeEvent(RCS_EVENT, event, context) },
        ]);
        return true;
      });
    },
  };
}

export type OutcomeStore = ReturnType<typeof createOutcomeStore>;

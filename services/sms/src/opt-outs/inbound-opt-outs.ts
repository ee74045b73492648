import { type Bus, type Subscription, subscribeToSmsInbound } from '@msg/bus';
import type { AccountState, SmsInbound } from '@msg/contracts';
import { withTransaction } from '@msg/db';
import type { Logger } from '@msg/logger';
import { mayBeKeyword, optOutEventFor, recordOptOut } from '@msg/optout';
import type pg from 'pg';
import { SMS_SCHEMA } from '../schema.js';

export interface InboundOptOutOptions {
  bus: Bus;
  pool: pg.Pool;
  logger: Logger;
  accountById(id: string): AccountState | undefined;
}

/** The consumer group of this service's inbound SMS (stop and start words). */
export const INBOUND_CONSUMER = 'sms-inbound-optouts';

/**
 * The account a reply belongs to: the one whose single SMS last reached its sender from the number
 * it was sent to (only numeric senders can be replied to). One indexed query
 * (message_recipient_sender_created_at_idx).
 */
async function accountOfReply(pool: pg.Pool, inbound: SmsInbound): Promise<string | undefined> {
  const { rows } = await pool.query<{ account_id: string }>(
    `SELECT "account_id" FROM "sms"."message"
      WHERE "recipient" = $1 AND "sender" = $2
      ORDER BY "created_at" DESC LIMIT 1`,
    [inbound.from, inbound.to],
  );
  return rows[0]?.account_id;
}

/**
 * Stop and start words sent back to the numeric senders of single SMS: the account is the one
 * that last wrote to the sender from that number; its opt-out change is applied to this
 * service's replica and queued on optouts.v1 (outbox) in one transaction, so the very next send is
 * refused, and the other services learn it from the topic. Reply-path numbers are replypath's:
 * for them this finds no message and does nothing. The event id derives from the inbound event's,
 * so a redelivery publishes nothing new.
 */
export async function startInboundOptOuts({
  bus,
  pool,
  logger,
  accountById,
}: InboundOptOutOptions): Promise<Subscription> {
  const log = logger.child({ component: 'inbound-opt-outs' });
  return subscribeToSmsInbound(bus, {
    groupId: INBOUND_CONSUMER,
    // Any number may be one of ours; texts that cannot be a keyword are passed over at once.
    owns: () => true,
    fromBeginning: true,
    handler: async (inbound, event) => {
      if (!mayBeKeyword(inbound.text)) return;
      const accountId = await accountOfReply(pool, inbound);
      if (!accountId) return;
      const words = accountById(accountId)?.optOutKeywords ?? [];
      const message = optOutEventFor(inbound, accountId, words, { sourceEventId: event.id });
      if (!message) return;
      await withTransaction(pool, (tx) => recordOptOut(tx, SMS_SCHEMA, message));
      log.info('opt-out keyword received', { eventId: event.id, accountId });
    },
  });
}

import type { AccountState, SmsInbound } from '@msg/contracts';
import type { Sql } from '@msg/db';
import { mayBeKeyword, optOutEventFor, recordOptOut } from '@msg/optout';
import { REPLYPATH_SCHEMA } from '../schema.js';

/** An SMS from a recipient to a number reserved (now or until lately) for an account's message. */
export interface ReplyToAccount {
  /** The account of the reservation the SMS matched (or, after the window, last matched). */
  accountId: string;
  /** The SMS (its `from` is the recipient). */
  inbound: SmsInbound;
  /** The sms.inbound.v1 event's id. */
  eventId: string;
}

/**
 * Called for every reply matched to a reservation, in the transaction that stores it, and for an
 * SMS to the pair after its reply window while the pair's reservation row is kept (quarantine),
 * with that reservation's account: the place where stop and start words change the account's
 * opt-out list.
 */
export type StopWordHook = (sql: Sql, reply: ReplyToAccount) => Promise<void>;

/**
 * Stop and start words in replies to reply-path numbers (`@msg/optout`: STOP, STOPP, AVSLUTA,
 * UNSUBSCRIBE and the account's own `optOutKeywords`; START, UNSTOP, STARTA): a stop word adds
 * (account of the reservation, recipient) to the account's opt-out list, a start word removes
 * it. The change is applied to this service's replica and queued on optouts.v1 through its outbox
 * in the reply's transaction, so it is exactly as durable as the reply; its event id derives from
 * the inbound event's, so a redelivery publishes nothing new. The reply itself is still stored
 * and forwarded: the customer learns that the recipient said STOP.
 */
export function honourStopWordsInReplies(
  accountById: (id: string) => AccountState | undefined,
): StopWordHook {
  return async (sql, { accountId, inbound, eventId }) => {
    if (!mayBeKeyword(inbound.text)) return;
    const words = accountById(accountId)?.optOutKeywords ?? [];
    const message = optOutEventFor(inbound, accountId, words, { sourceEventId: eventId });
    if (message) await recordOptOut(sql, REPLYPATH_SCHEMA, message);
  };
}

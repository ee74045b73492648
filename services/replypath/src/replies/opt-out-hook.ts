import type { Sql } from '@msg/db';

/** A reply from a recipient to a number reserved for one of an account's messages. */
export interface ReplyToAccount {
  accountId: string;
  /** The recipient who answered, E.164. */
  recipient: string;
  text: string;
}

/**
 * Called for every reply matched to a reservation, in the transaction that stores it: the place
 * where a stop word (STOP, STOPP, AVSLUTA, ...) puts (account of the reservation, recipient) on
 * the account's opt-out list. Writing in the same transaction (e.g. an opt-out event through the
 * service's outbox) keeps the opt-out exactly as durable as the reply.
 */
export type StopWordHook = (sql: Sql, reply: ReplyToAccount) => Promise<void>;

/**
 * The hook the service runs with until the opt-out package is wired in: it does nothing. The
 * opt-out work (branch optout) provides stop-word detection and the opt-out publisher; the lead
 * wires them here when merging it, replacing this function in service.ts by one that calls them.
 */
export const honourStopWordsInReplies: StopWordHook = async () => {};

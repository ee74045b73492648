import { randomUUID } from 'node:crypto';
import type { AccountState } from '@msg/contracts';
import { classifyDatabaseError, withTransaction } from '@msg/db';
import {
  type PrepaidBilling,
  queueOutbound,
  type RefusedSms,
  type Submission,
  submitSms,
} from '@msg/sms-submit';
import type pg from 'pg';
import { allocateReservations, previewAllocation } from '../pool/allocation.js';
import type { Reservation } from '../pool/reservation-store.js';
import { REPLYPATH_SCHEMA } from '../schema.js';
import { insertSentMessages, type SentMessage } from './message-store.js';
import { optedOutError, optedOutOf } from './opted-out.js';
import { FundsRefusedError } from './payment.js';
import type { AcceptedSend } from './send-request.js';

/** One message of a send: what the interfaces answer (spec 2.3). */
export interface SendResult {
  DestinationAddress: string;
  OriginatorAddress: string;
  TransactionId: string;
}

export interface SendOptions {
  source: SentMessage['source'];
  /** false: a dry run (`instantiate=false`): numbers chosen, nothing stored or sent. */
  instantiate: boolean;
  traceId?: string;
}

/** The SMS centre's shortest validity; VP 0 (no reply window) is sent with it. */
const MIN_VALIDITY_MINUTES = 1;
/** Whole-transaction attempts after a lost race (isLostRace). */
const ATTEMPTS = 3;

/**
 * A lost race worth running the whole transaction again for: the exclusion constraint refused a
 * pair (23P01, only possible for a writer that skipped the per-recipient lock), or two requests
 * with several recipients waited on each other's number rows in a tight pool (40P01).
 */
function isLostRace(err: unknown): boolean {
  const state = classifyDatabaseError(err)?.sqlState;
  return state === '23P01' || state === '40P01';
}

/**
 * The send use case shared by the public and the internal operation (one implementation for
 * the current and the legacy interface): per recipient one message, one reservation and one
 * sms.outbound.v1 event, all written in one transaction (outbox) — all recipients or none.
 *
 * A send goes the one SMS path (submitSms of @msg/sms-submit), so that nothing refused is ever
 * paid and nothing unpaid is ever stored: a recipient who opted out refuses the whole request
 * (400), then a prepaid account pays one credit per SMS part of every message, keyed by its
 * TransactionId (403 INSUFFICIENT_FUNDS when the balance does not cover all of them), then the
 * allocation and store; when they fail (pool exhausted, database), the payment is given back. A
 * dry run (`instantiate=false`) is refused for opted-out recipients too, answers what would be
 * allocated and is never charged.
 */
export function createSender({
  pool,
  billing,
  quarantineMs,
  now = () => new Date(),
}: {
  pool: pg.Pool;
  /** Prepaid debits (createPrepaidBilling of @msg/sms-submit); postpaid accounts make no call. */
  billing: PrepaidBilling;
  quarantineMs: number;
  now?: () => Date;
}) {
  /** `transactionIds`: one per recipient, chosen before paying, kept across attempts. */
  async function store(
    account: AccountState,
    sms: AcceptedSend,
    transactionIds: string[],
    options: SendOptions,
    submission: Submission,
  ) {
    const at = now();
    return withTransaction(pool, async (client) => {
      const reservations = await allocateReservations(
        client,
        sms.recipients.map((recipient, i) => ({
          recipient,
          transactionId: transactionIds[i] as string,
          accountId: account.id,
          oneShot: sms.oneShot,
          dlr: sms.dlr,
          vpMinutes: sms.vpMinutes,
        })),
        { at, quarantineMs },
      );
      await insertSentMessages(
        client,
        reservations.map((r) => ({
          transactionId: r.transactionId,
          accountId: account.id,
          source: options.source,
          recipient: r.recipient,
          number: r.number,
          text: sms.text,
          parts: sms.parts,
          encoding: sms.encoding,
          dlr: sms.dlr,
          oneShot: sms.oneShot,
          vp: sms.vpMinutes,
          createdAt: r.startsAt,
          expiresAt: r.endsAt,
        })),
      );
      // The pool numbers are chosen here, so they are the messages' senders.
      const senders = new Map(reservations.map((r) => [r.transactionId, r.number]));
      await queueOutbound(client, REPLYPATH_SCHEMA, submission.outbound(senders));
      return reservations;
    });
  }

  /** Stores the send, running it again after a lost race (isLostRace). */
  async function storeWithRetries(
    account: AccountState,
    sms: AcceptedSend,
    transactionIds: string[],
    options: SendOptions,
    submission: Submission,
  ): Promise<Reservation[]> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await store(account, sms, transactionIds, options, submission);
      } catch (err) {
        if (attempt >= ATTEMPTS || !isLostRace(err)) throw err;
      }
    }
  }

  return {
    async send(
      account: AccountState,
      sms: AcceptedSend,
      options: SendOptions,
    ): Promise<SendResult[]> {
      if (!options.instantiate) {
        const optedOut = await optedOutOf(pool, account.id, sms.recipients);
        if (optedOut.size > 0) throw optedOutError(sms.recipients, optedOut);
        const numbers = await previewAllocation(pool, sms.recipients, now());
        return sms.recipients.map((recipient, i) => ({
          DestinationAddress: recipient,
          OriginatorAddress: numbers[i] as string,
          TransactionId: randomUUID(),
        }));
      }
      const transactionIds = sms.recipients.map(() => randomUUID());
      const submitted = await submitSms(billing, {
        account,
        source: options.source,
        refuse: 'all',
        messages: sms.recipients.map((to, i) => ({
          messageId: transactionIds[i] as string,
          to,
          text: sms.text,
          encoding: sms.encoding,
          parts: sms.parts,
          deliveryReport: sms.dlr,
          validityMinutes: Math.max(MIN_VALIDITY_MINUTES, sms.vpMinutes),
        })),
        optedOut: (recipients) => optedOutOf(pool, account.id, recipients),
        write: (submission) => storeWithRetries(account, sms, transactionIds, options, submission),
        ...(options.traceId && { traceId: options.traceId }),
      });
      if (!submitted.ok) throw refusal(sms, submitted.refused);
      const reservations = submitted.result;
      return reservations.map((r) => ({
        DestinationAddress: r.recipient,
        OriginatorAddress: r.number,
        TransactionId: r.transactionId,
      }));
    },
  };
}

/** A refused send in the interface's terms: opted-out recipients first, else the balance. */
function refusal(sms: AcceptedSend, refused: readonly RefusedSms[]): Error {
  const optedOut = refused.filter((r) => r.reason === 'opted_out').map((r) => r.sms.to);
  if (optedOut.length > 0) return optedOutError(sms.recipients, new Set(optedOut));
  return new FundsRefusedError(sms.parts * sms.recipients.length);
}

export type Sender = ReturnType<typeof createSender>;

import { randomUUID } from 'node:crypto';
import { enqueueOutbox } from '@msg/bus';
import {
  type AccountState,
  makeEvent,
  SMS_OUTBOUND_EVENT,
  type SmsOutbound,
  Topics,
} from '@msg/contracts';
import { classifyDatabaseError, withTransaction } from '@msg/db';
import type { PrepaidBilling } from '@msg/sms-submit';
import type pg from 'pg';
import { allocateReservations, previewAllocation } from '../pool/allocation.js';
import type { Reservation } from '../pool/reservation-store.js';
import { REPLYPATH_SCHEMA } from '../schema.js';
import { insertSentMessages, type SentMessage } from './message-store.js';
import { refuseOptedOut } from './opted-out.js';
import { type Charge, payForSend, refundSend } from './payment.js';
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

function outboundOf(
  account: AccountState,
  sms: AcceptedSend,
  r: Reservation,
  source: SentMessage['source'],
): SmsOutbound {
  return {
    messageId: r.transactionId,
    accountId: account.id,
    source,
    from: r.number,
    to: r.recipient,
    text: sms.text,
    encoding: sms.encoding,
    parts: sms.parts,
    deliveryReport: sms.dlr,
    validityMinutes: Math.max(MIN_VALIDITY_MINUTES, sms.vpMinutes),
    throughputPerSecond: account.smsThroughputPerSecond,
  };
}

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
 * In this order, so that nothing refused is ever paid and nothing unpaid is ever stored:
 * 1. a recipient who opted out of the account refuses the whole request (400, dry run too);
 * 2. a dry run answers what would be allocated: never charged;
 * 3. a prepaid account pays one credit per SMS part of every message, keyed by its
 *    TransactionId (403 INSUFFICIENT_FUNDS when the balance does not cover all of them);
 * 4. the allocation and store; when they fail (pool exhausted, database), the payment is given
 *    back.
 */
export function createSender({
  pool,
  billing,
  quarantineMs,
  now = () => new Date(),
}: {
  pool: pg.Pool;
  /** Prepaid debits (createPrepaidBilling of @msg/auth); postpaid accounts make no call. */
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
      await enqueueOutbox(
        client,
        REPLYPATH_SCHEMA,
        Topics.smsOutbound,
        reservations.map((r) => ({
          // Keyed by account: per-account order and throughput at the connector.
          key: account.id,
          value: makeEvent(SMS_OUTBOUND_EVENT, outboundOf(account, sms, r, options.source), {
            accountId: account.id,
            ...(options.traceId && { traceId: options.traceId }),
          }),
        })),
      );
      return reservations;
    });
  }

  /** Stores the send, running it again after a lost race (isLostRace). */
  async function storeWithRetries(
    account: AccountState,
    sms: AcceptedSend,
    transactionIds: string[],
    options: SendOptions,
  ): Promise<Reservation[]> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await store(account, sms, transactionIds, options);
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
      await refuseOptedOut(pool, account.id, sms.recipients);
      if (!options.instantiate) {
        const numbers = await previewAllocation(pool, sms.recipients, now());
        return sms.recipients.map((recipient, i) => ({
          DestinationAddress: recipient,
          OriginatorAddress: numbers[i] as string,
          TransactionId: randomUUID(),
        }));
      }
      const transactionIds = sms.recipients.map(() => randomUUID());
      const charges: Charge[] = transactionIds.map((reference) => ({
        reference,
        parts: sms.parts,
      }));
      await payForSend(billing, account, charges);
      let reservations: Reservation[];
      try {
        reservations = await storeWithRetries(account, sms, transactionIds, options);
      } catch (err) {
        // Paid but not accepted (no number free, the database refused): the credits go back.
        await refundSend(billing, account, charges);
        throw err;
      }
      return reservations.map((r) => ({
        DestinationAddress: r.recipient,
        OriginatorAddress: r.number,
        TransactionId: r.transactionId,
      }));
    },
  };
}

export type Sender = ReturnType<typeof createSender>;

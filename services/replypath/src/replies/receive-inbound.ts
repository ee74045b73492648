import { randomUUID } from 'node:crypto';
import { claimEvent, enqueueOutbox } from '@msg/bus';
import {
  type AccountState,
  callbackRequestMessage,
  type EventEnvelope,
  type SmsInbound,
  Topics,
} from '@msg/contracts';
import { type Sql, withTransaction } from '@msg/db';
import type { Logger } from '@msg/logger';
import type pg from 'pg';
import { findActiveReservation, releaseReservation } from '../pool/reservation-store.js';
import { REPLYPATH_SCHEMA } from '../schema.js';
import type { InboundMetrics, InboundOutcome } from './inbound-metrics.js';
import type { StopWordHook } from './opt-out-hook.js';
import { replyCallbackRequest } from './reply-callback.js';
import { insertReply, lastAccountOfPair } from './reply-store.js';
import { deleteSentMessage } from './reservation-end.js';

/** Consumer name of the inbound consumer in processed_event (and its consumer group). */
export const INBOUND_CONSUMER = 'replypath-inbound';

export interface ReceiveInboundDeps {
  pool: pg.Pool;
  accountById(id: string): AccountState | undefined;
  /** The service's clock: what "active now" means (injected in tests). */
  now(): Date;
  /** How long a released (OneShot) pair stays blocked (REPLYPATH_QUARANTINE). */
  quarantineMs: number;
  onStopWord: StopWordHook;
  metrics: InboundMetrics;
  logger: Logger;
}

/**
 * Handles one sms.inbound.v1 event sent to a pool number, in one transaction: the dedupe claim,
 * the stored reply, the callbacks.v1 request (outbox) and, for OneShot, the release all commit
 * together or not at all, so a redelivered event is handled exactly once and a reply is never
 * forwarded without being stored (or stored without being forwarded).
 */
export function createInboundReceiver(deps: ReceiveInboundDeps) {
  const { pool, metrics, logger } = deps;
  return async function receiveInbound(
    inbound: SmsInbound,
    event: EventEnvelope<SmsInbound>,
  ): Promise<InboundOutcome> {
    const outcome = await withTransaction(pool, (sql) =>
      receiveIn(sql, inbound, event, deps),
    ).catch((error: unknown) => {
      if (error instanceof DuplicateSms) return 'duplicate' as const;
      throw error;
    });
    metrics.inbound(outcome);
    // Never the numbers or the text (personal data): the event id finds them.
    if (outcome === 'unmatched')
      logger.info('inbound sms matches no reservation', { eventId: event.id });
    else if (outcome === 'stored-without-callback')
      logger.info('reply stored; account has no reply-path callback', { eventId: event.id });
    return outcome;
  };
}

/**
 * The SMSC's id of this SMS is stored already (it resent the SMS, published as a new event):
 * thrown to roll back what the transaction did for it (a OneShot release among them).
 */
class DuplicateSms extends Error {
  override name = 'DuplicateSms';
}

async function receiveIn(
  sql: Sql,
  inbound: SmsInbound,
  event: EventEnvelope<SmsInbound>,
  { accountById, now, quarantineMs, onStopWord }: ReceiveInboundDeps,
): Promise<InboundOutcome> {
  if (!(await claimEvent(sql, REPLYPATH_SCHEMA, INBOUND_CONSUMER, event.id))) return 'duplicate';
  const at = now();
  const reservation = await findActiveReservation(sql, {
    recipient: inbound.from,
    number: inbound.to,
    at,
  });
  if (!reservation) {
    // Not a reply any more (nothing stored or forwarded), but a stop word still reaches the
    // account that last wrote from this number to this recipient, while the pair is quarantined.
    const accountId = await lastAccountOfPair(sql, {
      recipient: inbound.from,
      number: inbound.to,
      at,
    });
    if (accountId) await onStopWord(sql, { accountId, inbound, eventId: event.id });
    return 'unmatched';
  }
  // OneShot: this reply takes the reservation (the update locks it and re-checks it is not
  // released), so no second reply can be processed for it; the pair stays quarantined.
  if (
    reservation.oneShot &&
    !(await releaseReservation(sql, { transactionId: reservation.transactionId, at, quarantineMs }))
  ) {
    return 'unmatched';
  }
  await onStopWord(sql, { accountId: reservation.accountId, inbound, eventId: event.id });

  const replyId = randomUUID();
  const request = replyCallbackRequest(
    accountById(reservation.accountId)?.callbacks,
    {
      replyId,
      accountId: reservation.accountId,
      from: inbound.from,
      inResponseTo: reservation.transactionId,
      text: inbound.text,
    },
    reservation.endsAt,
  );
  const stored = await insertReply(sql, {
    id: replyId,
    transactionId: reservation.transactionId,
    from: inbound.from,
    text: inbound.text,
    receivedAt: new Date(inbound.receivedAt),
    inboundEventId: event.id,
    smscMessageId: inbound.smscMessageId,
    forwardState: request ? 'requested' : 'no-callback',
    callbackId: request?.callbackId ?? null,
  });
  if (!stored) throw new DuplicateSms();
  if (request) {
    await enqueueOutbox(sql, REPLYPATH_SCHEMA, Topics.callbacks, [
      callbackRequestMessage(request, event.traceId),
    ]);
  }
  // OneShot: the first reply is processed once its callback request is committed with it (the
  // notifier delivers it from there; see the README), so the sent-message record goes in this
  // transaction, with the reply (its text travels in the callback request).
  if (reservation.oneShot) await deleteSentMessage(sql, reservation.transactionId);
  return request ? 'forwarded' : 'stored-without-callback';
}

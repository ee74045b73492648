import type { RateLimiter } from '@msg/auth';
import type { SmsOutbound, SmsStatus, TopicEvent, Topics } from '@msg/contracts';
import { createBatcher, createGroupCommit } from '@msg/db';
import type { Logger } from '@msg/logger';
import { ESM_CLASS_UDHI, SmppSplitError, splitForSmpp } from '@msg/sms-text';
import type pg from 'pg';
import type { BindPool } from './bind-pool.js';
import type { ConnectorMetrics } from './metrics.js';
import { type SmppAddress, SmppAddressError, toSmppAddress } from './smpp-address.js';
import { BindLostError, type SmppBind } from './smpp-bind.js';
import { isRetryableSubmitStatus, SmppStatus, statusLabel } from './smpp-status.js';
import {
  type AcceptedPart,
  findRecordedSubmissions,
  type ReceiptWaitPolicy,
  recordSubmissions,
  type SubmissionOutcome,
} from './submission-store.js';
import { type BindPacer, takeToken } from './submit-pacer.js';
import { relativeValidity } from './validity-period.js';

export interface OutboundHandlerOptions {
  pool: pg.Pool;
  binds: BindPool;
  pacers: ReadonlyMap<SmppBind, BindPacer>;
  accountLimiter: RateLimiter;
  defaultAccountTps: number;
  metrics: ConnectorMetrics;
  logger: Logger;
  signal: AbortSignal;
  /** How long receipts are awaited before a message expires. */
  receiptWait: ReceiptWaitPolicy;
}

/**
 * Handles one sms.outbound.v1 event, as subscribeToEvents hands it over (checked against the
 * topic's schema by the bus, so never re-checked here): submits every part, then records the outcome and its status
 * event in a committed transaction, and only then returns — so the consumer's offset moves past
 * the event only after the SMSC answered and the answer is durable.
 *
 * The handlers of a partition run concurrently and finish at nearly the same time, so their
 * database work is batched: the "already submitted?" lookups of handlers that ask while one runs
 * go together in the next (one `= ANY` query), and the outcomes that finish while a commit runs
 * are recorded together in the next transaction (a group commit). Nothing waits on a timer.
 */
export function createOutboundHandler(options: OutboundHandlerOptions) {
  const { pool, binds, pacers, metrics, logger, signal, receiptWait } = options;
  const recorded = createBatcher({
    run: async (messageIds: string[]) => {
      const found = await findRecordedSubmissions(pool, messageIds);
      return messageIds.map((messageId) => found.has(messageId));
    },
  });
  const commits = createGroupCommit(pool, (client, outcomes: SubmissionOutcome[]) =>
    recordSubmissions(client, outcomes, receiptWait),
  );
  /** Rolling 8-bit concatenation reference per bind. */
  const references = new Map<SmppBind, number>();

  function nextReference(bind: SmppBind): number {
    const reference = ((references.get(bind) ?? Math.floor(Math.random() * 256)) + 1) % 256;
    references.set(bind, reference);
    return reference;
  }

  /** Submits one part until some bind answers it with a final status (ok or a real error). */
  async function submitPart(
    message: SmsOutbound,
    fields: Record<string, unknown>,
    preferred: SmppBind,
  ): Promise<{ bind: SmppBind; status: number; messageId: string | null }> {
    let bind: SmppBind | null = preferred.isBound ? preferred : null;
    for (;;) {
      await takeToken(
        options.accountLimiter,
        message.accountId,
        message.throughputPerSecond ?? options.defaultAccountTps,
        signal,
      );
      bind ??= await binds.acquire(signal);
      const pacer = pacers.get(bind);
      await pacer?.wait(signal);
      const started = performance.now();
      try {
        const result = await bind.submit(fields);
        metrics.submitSeconds.observe((performance.now() - started) / 1000);
        if (isRetryableSubmitStatus(result.status)) {
          metrics.submits.inc({ result: 'throttled' });
          pacer?.slowDown();
          continue;
        }
        metrics.submits.inc({
          result: result.status === SmppStatus.ok ? 'ok' : statusLabel(result.status),
        });
        if (result.status === SmppStatus.ok) pacer?.accepted();
        return { bind, ...result };
      } catch (error) {
        if (!(error instanceof BindLostError)) throw error;
        // Unknown whether the SMSC got it: resubmit on whichever bind is up (at-least-once).
        metrics.submits.inc({ result: 'lost' });
        logger.warn('submit_sm lost with its bind; resubmitting', {
          bind: bind.name,
          messageId: message.messageId,
        });
        bind = null;
      }
    }
  }

  async function submitMessage(message: SmsOutbound): Promise<SubmissionOutcome> {
    const first = await binds.acquire(signal);
    let split: ReturnType<typeof splitForSmpp>;
    let source: SmppAddress;
    let destination: SmppAddress;
    try {
      split = splitForSmpp(message.text, { reference: nextReference(first) });
      source = toSmppAddress(message.from);
      destination = toSmppAddress(message.to);
    } catch (error) {
      if (!(error instanceof SmppSplitError || error instanceof SmppAddressError)) throw error;
      return {
        message,
        parts: error instanceof SmppSplitError ? (error.parts ?? 0) : 0,
        bindName: null,
        accepted: [],
        error: { description: `message not submittable: ${error.message}` },
        at: new Date(),
      };
    }
    const accepted: AcceptedPart[] = [];
    let bind = first;
    for (const [index, part] of split.parts.entries()) {
      const fields = {
        source_addr_ton: source.ton,
        source_addr_npi: source.npi,
        source_addr: source.addr, // a Buffer: GSM-7 octets for TON 5, not the package's ASCII
        dest_addr_ton: destination.ton,
        dest_addr_npi: destination.npi,
        destination_addr: destination.addr,
        esm_class: part.udh ? ESM_CLASS_UDHI : 0,
        registered_delivery: message.deliveryReport ? 1 : 0,
        data_coding: split.dataCoding,
        ...(message.validityMinutes
          ? { validity_period: relativeValidity(message.validityMinutes) }
          : {}),
        // A Buffer is sent as is: the package would otherwise re-encode the text its own way.
        short_message: part.udh ? Buffer.concat([part.udh, part.payload]) : part.payload,
      };
      const result = await submitPart(message, fields, bind);
      bind = result.bind;
      if (result.status !== SmppStatus.ok || !result.messageId) {
        const status = result.status === SmppStatus.ok ? SmppStatus.systemError : result.status;
        const error: NonNullable<SmsStatus['error']> = {
          smppStatus: status,
          description: `submit_sm of part ${index + 1} refused by the SMSC (${statusLabel(status)})`,
        };
        const parts = split.parts.length;
        return { message, parts, bindName: first.name, accepted, error, at: new Date() };
      }
      accepted.push({
        partNo: index + 1,
        scope: bind.scope,
        smscMessageId: result.messageId,
        acceptedAt: new Date(),
      });
    }
    return { message, parts: split.parts.length, bindName: first.name, accepted, at: new Date() };
  }

  return async function handleOutbound(
    event: TopicEvent<typeof Topics.smsOutbound>,
  ): Promise<void> {
    const message = event.payload;
    // Redelivered after a crash or rebalance: already submitted and its status already enqueued.
    if (await recorded.add(message.messageId)) {
      logger.info('outbound message already submitted; not sending again', {
        messageId: message.messageId,
      });
      return;
    }
    const outcome = await submitMessage(message);
    const { reused } = await commits.add(outcome);
    for (const takeover of reused) {
      metrics.smscMessageIdReused.inc();
      logger.warn('SMSC message id reused; the new message takes it over', { ...takeover });
    }
  };
}

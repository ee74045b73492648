import { type BusMessage, enqueueOutbox } from '@msg/bus';
import type { AccountState, EventEnvelope, SmsStatus } from '@msg/contracts';
import { isFinalSmsState, isSmsState, smsStateAdvances, Topics } from '@msg/contracts';
import { createGroupCommit, isUuid, type Sql } from '@msg/db';
import { ANY_TARGET, isClientUrl } from '@msg/http';
import type { Logger } from '@msg/logger';
import type pg from 'pg';
import { SMS_SCHEMA } from '../schema.js';
import { statusCallback } from './status-callback.js';
import { lockMessages, type MessageStatusChange, updateMessageStatuses } from './status-store.js';

/** The status consumer's consumer group. */
export const STATUS_CONSUMER = 'sms-status';

export interface ApplyStatusDeps {
  pool: pg.Pool;
  /** The account's current delivery-report URL comes from here when a message has no callback_url. */
  accountById: (id: string) => AccountState | undefined;
  logger: Logger;
}

/**
 * 'stale': the report does not move the message forward (smsStateAdvances of @msg/contracts), which is also what a
 * redelivered report is: it was applied before, or comes twice in one batch.
 */
export type StatusOutcome = 'applied' | 'stale' | 'unknown-message';

/** One sms.status.v1 report as the consumer got it. */
export interface StatusReport {
  envelope: EventEnvelope;
  status: SmsStatus;
}

/**
 * Applies status reports to their messages; reports handled at the same time share one
 * transaction (see applyStatusBatch; `createGroupCommit` of `@msg/db`).
 */
export function createStatusApplier({ pool, ...deps }: ApplyStatusDeps) {
  const group = createGroupCommit<StatusReport, StatusOutcome>(pool, (client, reports) =>
    applyStatusBatch(client, reports, deps),
  );
  return (envelope: EventEnvelope, status: SmsStatus): Promise<StatusOutcome> =>
    group.add({ envelope, status });
}

/**
 * Applies a batch of reports in the caller's transaction, answering one outcome per report in
 * order. The status changes and the callback requests commit together, so a callback is queued
 * if and only if its change commits. Deduplication is by state, not by event id: a status only
 * moves forward (smsStateAdvances of @msg/contracts), so a redelivered report finds its state already reached and
 * is 'stale', with nothing written or queued; no per-event dedupe row is needed (two fewer row
 * writes per SMS than claiming each event id). Three statements whatever the batch size: lock
 * the messages, (in JS, report by report in order) decide, write the changes, queue the
 * callbacks. Reports about one message in one batch apply in order, each against the state the
 * one before left: submitted then delivered gives both changes, delivered then submitted only
 * the first.
 */
export async function applyStatusBatch(
  sql: Sql,
  reports: StatusReport[],
  { accountById, logger }: Omit<ApplyStatusDeps, 'pool'>,
): Promise<StatusOutcome[]> {
  const wanted = reports
    .filter((r) => isUuid(r.status.messageId))
    .map((r) => r.status.messageId.toLowerCase());
  const messages = wanted.length > 0 ? await lockMessages(sql, wanted) : new Map();

  const changes = new Map<string, MessageStatusChange>();
  const callbacks: BusMessage[] = [];
  const outcomes = reports.map(({ envelope, status }): StatusOutcome => {
    const message = messages.get(status.messageId.toLowerCase());
    if (!message || message.account_id !== status.accountId) {
      logger.warn('status for unknown message', { messageId: status.messageId });
      return 'unknown-message';
    }
    const before = changes.get(message.id);
    const stored = isSmsState(message.status) ? message.status : 'accepted';
    const current = before && isSmsState(before.status) ? before.status : stored;
    if (!smsStateAdvances(current, status.state)) return 'stale';

    const at = new Date(status.at).toISOString();
    const smscMessageIds =
      status.smscMessageIds.length > 0
        ? status.smscMessageIds
        : (before?.smscMessageIds ?? message.smsc_message_ids);
    changes.set(message.id, {
      id: message.id,
      status: status.state,
      smscMessageIds,
      submittedAt: status.state === 'submitted' ? at : (before?.submittedAt ?? null),
      completedAt: isFinalSmsState(status.state) ? at : (before?.completedAt ?? null),
      error: status.error ?? before?.error ?? null,
    });

    const url =
      message.callback_url ?? accountById(message.account_id)?.callbacks.deliveryReportUrl ?? null;
    // Judged when given (format callback-url); its target is the notifier's to judge now.
    if (url && isClientUrl(url, ANY_TARGET)) {
      callbacks.push(
        statusCallback(
          url,
          message.account_id,
          {
            messageId: message.id,
            status: status.state,
            smscMessageIds,
            parts: message.parts,
            at,
            ...(status.error && { error: status.error }),
          },
          envelope.traceId,
        ),
      );
    }
    return 'applied';
  });

  await updateMessageStatuses(sql, [...changes.values()]);
  if (callbacks.length > 0) await enqueueOutbox(sql, SMS_SCHEMA, Topics.callbacks, callbacks);
  return outcomes;
}

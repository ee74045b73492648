import { type BusMessage, enqueueOutbox } from '@msg/bus';
import type { AccountState, EventEnvelope, SmsStatus } from '@msg/contracts';
import { Topics } from '@msg/contracts';
import { createGroupCommit, type Sql } from '@msg/db';
import { isClientUrl } from '@msg/http';
import type { Logger } from '@msg/logger';
import type pg from 'pg';
import { SMS_SCHEMA } from '../messages/message-store.js';
import { advances, isFinal, isSmsState } from '../messages/status-order.js';
import { statusCallback } from './status-callback.js';
import {
  claimEvents,
  lockMessages,
  type MessageStatusChange,
  updateMessageStatuses,
} from './status-store.js';

/** Consumer name of the status consumer in processed_event (and its consumer group). */
export const STATUS_CONSUMER = 'sms-status';

export interface ApplyStatusDeps {
  pool: pg.Pool;
  /** The account's current delivery-report URL comes from here when a message has no callback_url. */
  accountById: (id: string) => AccountState | undefined;
  logger: Logger;
}

export type StatusOutcome = 'applied' | 'duplicate' | 'stale' | 'unknown-message';

/** One sms.status.v1 report as the consumer got it. */
export interface StatusReport {
  envelope: EventEnvelope;
  status: SmsStatus;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
 * order. The dedupe claims, the status changes and the callback requests commit together, so
 * each report is applied exactly once and its callback is queued if and only if the change
 * commits. Five statements whatever the batch size: claim the event ids, lock the messages, (in
 * JS, report by report in order, with status-order.ts) decide, write the changes, queue the
 * callbacks. Reports about one message in one batch apply in order, each against the state the
 * one before left: submitted then delivered gives both changes, delivered then submitted only
 * the first.
 */
export async function applyStatusBatch(
  sql: Sql,
  reports: StatusReport[],
  { accountById, logger }: Omit<ApplyStatusDeps, 'pool'>,
): Promise<StatusOutcome[]> {
  const claimed = await claimEvents(
    sql,
    STATUS_CONSUMER,
    reports.map((r) => r.envelope.id),
  );
  // The same event twice in one batch: the claim counts for the first only.
  const fresh = reports.map(({ envelope }) => claimed.delete(envelope.id));
  const wanted = reports
    .filter((r, i) => fresh[i] && UUID.test(r.status.messageId))
    .map((r) => r.status.messageId.toLowerCase());
  const messages = wanted.length > 0 ? await lockMessages(sql, wanted) : new Map();

  const changes = new Map<string, MessageStatusChange>();
  const callbacks: BusMessage[] = [];
  const outcomes = reports.map(({ envelope, status }, i): StatusOutcome => {
    if (!fresh[i]) return 'duplicate';
    const message = messages.get(status.messageId.toLowerCase());
    if (!message || message.account_id !== status.accountId) {
      logger.warn('status for unknown message', { messageId: status.messageId });
      return 'unknown-message';
    }
    const before = changes.get(message.id);
    const stored = isSmsState(message.status) ? message.status : 'accepted';
    const current = before && isSmsState(before.status) ? before.status : stored;
    if (!advances(current, status.state)) return 'stale';

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
      completedAt: isFinal(status.state) ? at : (before?.completedAt ?? null),
      error: status.error ?? before?.error ?? null,
    });

    const url =
      message.callback_url ?? accountById(message.account_id)?.callbacks.deliveryReportUrl ?? null;
    if (url && isClientUrl(url)) {
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

import { enqueueOutbox } from '@msg/bus';
import { BATCH_EVENT, type BatchDomainEvent, makeEvent, Topics } from '@msg/contracts';
import type { components } from '@msg/contracts/batch';
import type { Sql } from '@msg/db';
import { BATCH_SCHEMA, type BatchRow } from './batch-row.js';
import { toSummary } from './summary.js';

export type BatchEvent = components['schemas']['BatchEvent'];
export type BatchEventType = BatchEvent['event_type'];

/** Extra members of batch.submission_progress_update (specification 6.1). */
type ProgressMembers = Pick<
  BatchEvent,
  'submission_progress_percentage' | 'submitted_messages_delta'
>;

/**
 * Queues a batch event on batch.events.v1 in the caller's transaction (through the outbox), so it
 * goes out if and only if the change it reports commits; the notifier turns it into the POST to
 * the batch's callback URL (`?token=` when a token is set). Nothing when the batch has no
 * callback URL. Keyed by batch id: one batch's events stay in order.
 */
export async function queueBatchEvent(
  sql: Sql,
  row: BatchRow,
  eventType: BatchEventType,
  extra: ProgressMembers = {},
  traceId?: string,
): Promise<void> {
  if (!row.callback_url) return;
  const event: BatchDomainEvent = {
    batchId: row.id,
    accountId: row.account_id,
    callback: {
      url: row.callback_url,
      ...(row.callback_token !== null && { token: row.callback_token }),
    },
    event: {
      event_type: eventType,
      timestamp: new Date().toISOString(),
      batch_status_summary: toSummary(row),
      ...extra,
    },
  };
  await enqueueOutbox(sql, BATCH_SCHEMA, Topics.batchEvents, [
    {
      key: row.id,
      value: makeEvent(BATCH_EVENT, event, {
        accountId: row.account_id,
        ...(traceId && { traceId }),
      }),
    },
  ]);
}

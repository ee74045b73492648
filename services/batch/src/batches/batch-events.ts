import { randomUUID } from 'node:crypto';
import { enqueueOutbox } from '@msg/bus';
import { CALLBACK_REQUEST_EVENT, type CallbackRequest, makeEvent, Topics } from '@msg/contracts';
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
 * Queues a batch event for the notifier in the caller's transaction (callbacks.v1 through the
 * outbox), so it goes out if and only if the change it reports commits. POST to the batch's
 * callback URL with `?token=` when a token is set; nothing when the batch has no callback URL.
 * Keyed by the URL's origin: one receiver's events are handled in order by one consumer.
 */
export async function queueBatchEvent(
  sql: Sql,
  row: BatchRow,
  eventType: BatchEventType,
  extra: ProgressMembers = {},
  traceId?: string,
): Promise<void> {
  if (!row.callback_url) return;
  const body: BatchEvent = {
    event_type: eventType,
    timestamp: new Date().toISOString(),
    batch_status_summary: toSummary(row),
    ...extra,
  };
  const request: CallbackRequest = {
    callbackId: randomUUID(),
    accountId: row.account_id,
    url: row.callback_url,
    method: 'POST',
    ...(row.callback_token !== null && { query: { token: row.callback_token } }),
    body,
    origin: { service: 'batch', kind: eventType },
  };
  const event = makeEvent(CALLBACK_REQUEST_EVENT, request, {
    accountId: row.account_id,
    ...(traceId && { traceId }),
  });
  await enqueueOutbox(sql, BATCH_SCHEMA, Topics.callbacks, [
    { key: new URL(row.callback_url).origin, value: event },
  ]);
}

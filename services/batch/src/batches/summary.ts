import type { components } from '@msg/contracts/batch';
import type { BatchRow } from './batch-row.js';

export type BatchStatusSummary = components['schemas']['BatchStatusSummary'];
export type SmsConfig = components['schemas']['SmsConfig'];
export type NotificationSettings = components['schemas']['NotificationSettings'];

const iso = (at: Date | null) => (at ? at.toISOString() : null);

/** The `batch_status_summary` of a batch: status, timestamps and counts, every member present. */
export function toSummary(row: BatchRow): BatchStatusSummary {
  return {
    batch_id: row.id,
    external_batch_id: row.external_batch_id,
    status: row.status,
    created_at: row.created_at.toISOString(),
    scheduled_at: iso(row.scheduled_at),
    started_at: iso(row.started_at),
    completed_at: iso(row.completed_at),
    total_messages: row.total_messages,
    submitted_messages: row.submitted_messages,
    failed_messages: row.failed_messages,
    pending_messages: row.total_messages - row.submitted_messages - row.failed_messages,
    total_parts: row.total_parts,
  };
}

export function toSmsConfig(row: BatchRow): SmsConfig {
  return {
    sender_id: row.sender_id,
    message_template: row.message_template,
    ...(row.validity_minutes !== null && { validity_period_minutes: row.validity_minutes }),
    delivery_report: row.delivery_report,
  };
}

export function toNotificationSettings(row: BatchRow): NotificationSettings | null {
  if (!row.callback_url) return null;
  return {
    batch_event_callback_url: row.callback_url,
    ...(row.callback_token !== null && { batch_event_callback_token: row.callback_token }),
  };
}

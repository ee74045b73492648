import { z } from 'zod';
import type { CallbackRequest } from './callbacks.js';
import type { EventEnvelope } from './envelope.js';
import type { components } from './generated/batch.js';

/**
 * `batch.events.v1`, key = batch id: what happened to a batch, in order per batch. The batch
 * service publishes one for every change of a batch that has a callback URL; the notifier turns
 * each into the POST of `event` to that URL (`?token=` appended when one is set). `event` is the
 * batch interface's own `BatchEvent` (its OpenAPI document), so what the customer receives is
 * defined there. Event type `batch.event`.
 */
export interface BatchDomainEvent {
  batchId: string;
  accountId: string;
  /** Where the customer wants the batch's events, as given at create. */
  callback: { url: string; token?: string };
  event: BatchEventBody;
}

/** The body of a batch event callback (batch OpenAPI `BatchEvent`). */
export type BatchEventBody = components['schemas']['BatchEvent'];

export const BATCH_EVENT = 'batch.event';

const isoTime = z.iso.datetime({ offset: true });
const nullableTime = isoTime.nullable();

const batchStatusSummarySchema = z.object({
  batch_id: z.string(),
  external_batch_id: z.string().nullable(),
  status: z.enum(['created', 'scheduled', 'processing', 'completed', 'canceled', 'failed']),
  created_at: isoTime,
  scheduled_at: nullableTime,
  started_at: nullableTime,
  completed_at: nullableTime,
  total_messages: z.number().int().min(0),
  submitted_messages: z.number().int().min(0),
  failed_messages: z.number().int().min(0),
  pending_messages: z.number().int().min(0),
  total_parts: z.number().int().min(0),
});

const messageDeltaSchema = z.object({
  id: z.string(),
  external_message_id: z.string(),
  transaction_id: z.string(),
  phone_number: z.string(),
  message: z.string(),
  submission_status: z.enum(['SUBMITTED', 'FAILED']),
  submission_time: isoTime,
});

const batchEventBodySchema = z.object({
  event_type: z.enum([
    'batch.created',
    'batch.scheduled',
    'batch.processing_started',
    'batch.submission_progress_update',
    'batch.submission_completed',
    'batch.canceled',
    'batch.failed',
  ]),
  timestamp: isoTime,
  batch_status_summary: batchStatusSummarySchema,
  submission_progress_percentage: z.number().int().min(0).max(100).optional(),
  submitted_messages_delta: z.array(messageDeltaSchema).optional(),
});

export const batchDomainEventSchema: z.ZodType<BatchDomainEvent> = z.object({
  batchId: z.string().min(1),
  accountId: z.string().min(1),
  callback: z.object({ url: z.url({ protocol: /^https?$/ }), token: z.string().optional() }),
  event: batchEventBodySchema,
});

/**
 * The customer callback a batch event stands for, as the notifier delivers it: a POST of `event`
 * to the callback URL, `?token=` when one is set. One callback per event (its id), so a
 * redelivered event is delivered once.
 */
export function batchEventCallback({
  id,
  payload,
}: Pick<EventEnvelope<BatchDomainEvent>, 'id' | 'payload'>): CallbackRequest {
  const { accountId, callback, event } = payload;
  return {
    callbackId: id,
    accountId,
    url: callback.url,
    method: 'POST',
    ...(callback.token !== undefined && { query: { token: callback.token } }),
    body: event,
    origin: { service: 'batch', kind: event.event_type },
  };
}

import { z } from 'zod';
import { type EventEnvelope, makeEvent } from './envelope.js';

/**
 * `callbacks.v1`: an HTTP callback any service asks the notifier to deliver (key = the target's
 * origin, so one target's callbacks are handled in order by one consumer). Event type
 * `callback.request`. `callbacks.dlq.v1` receives the ones given up on, with the last error.
 */
export interface CallbackRequest {
  /** Unique per callback; the notifier delivers each at least once and logs every attempt. */
  callbackId: string;
  accountId: string;
  /** Absolute http(s) URL. */
  url: string;
  method: 'GET' | 'POST';
  /** Added to the URL's query, for any method (reply-path GETs, batch events' `?token=`). */
  query?: Record<string, string>;
  /** JSON body (POST). */
  body?: unknown;
  /**
   * The POST body exactly as it must go on the wire (sent as `application/json`, byte for byte),
   * instead of `body`: for a body the requester signed (RCS webhooks' X-Webhook-Signature is an
   * HMAC of the raw body, which re-serialising could change).
   */
  bodyText?: string;
  /**
   * Retry every answered failure (any non-2xx status), not only 5xx, 408 and 429: RCS webhooks
   * (spec 6.3: non-2xx, timeout and connection errors are all retried). Default false.
   */
  retryEveryFailure?: boolean;
  /** Extra request headers, names `x-...` only (e.g. the requester's own X-Webhook-Signature). */
  headers?: Record<string, string>;
  /** Stop retrying after this time (ISO); the notifier's default horizon otherwise. */
  giveUpAt?: string;
  /** What the callback is about, for logs and metrics: e.g. { service: 'sms', kind: 'status' }. */
  origin: { service: string; kind: string };
}

export const CALLBACK_REQUEST_EVENT = 'callback.request';

/**
 * The callbacks.v1 message (key and event) asking the notifier for `request`. Keyed by the URL's
 * origin, so one receiver's callbacks are delivered in order by one consumer.
 */
export function callbackRequestMessage(
  request: CallbackRequest,
  traceId?: string,
): { key: string; value: EventEnvelope<CallbackRequest> } {
  const value = makeEvent(CALLBACK_REQUEST_EVENT, request, {
    accountId: request.accountId,
    ...(traceId && { traceId }),
  });
  return { key: new URL(request.url).origin, value };
}

/** `callbacks.dlq.v1`: a callback that was not delivered before its horizon. */
export interface CallbackDeadLetter extends CallbackRequest {
  attempts: number;
  lastError: string;
  gaveUpAt: string;
}

export const CALLBACK_DEAD_LETTER_EVENT = 'callback.dead_letter';

const httpUrl = z
  .string()
  .refine(
    (raw) => URL.canParse(raw) && ['http:', 'https:'].includes(new URL(raw).protocol),
    'expected an absolute http(s) URL',
  )
  .describe('Absolute http(s) URL.');

const callbackRequestShape = {
  callbackId: z.string().min(1).max(200),
  accountId: z.string().min(1),
  url: httpUrl,
  method: z.enum(['GET', 'POST']),
  query: z.record(z.string(), z.string()).optional(),
  body: z.unknown().optional(),
  bodyText: z.string().max(1_000_000).optional(),
  retryEveryFailure: z.boolean().optional(),
  headers: z
    .record(
      z.string().regex(/^x-[a-z0-9-]{1,100}$/i, 'expected a header name x-...'),
      z.string().max(4096),
    )
    .optional(),
  giveUpAt: z.iso.datetime({ offset: true }).optional(),
  origin: z.object({ service: z.string(), kind: z.string() }),
};

export const callbackRequestSchema: z.ZodType<CallbackRequest> = z.object(callbackRequestShape);

export const callbackDeadLetterSchema: z.ZodType<CallbackDeadLetter> = z.object({
  ...callbackRequestShape,
  attempts: z.number().int().min(0),
  lastError: z.string(),
  gaveUpAt: z.iso.datetime({ offset: true }),
});

import { E164_PATTERN } from '@msg/phone/e164';
import { z } from 'zod';

/** RBM message traffic types (spec 2.5 `message_traffic_type`, an agent's use case). */
export const RCS_TRAFFIC_TYPES = [
  'AUTHENTICATION',
  'TRANSACTION',
  'PROMOTION',
  'SERVICEREQUEST',
  'ACKNOWLEDGEMENT',
  'MESSAGE_TRAFFIC_TYPE_UNSPECIFIED',
] as const;
export type RcsTrafficType = (typeof RCS_TRAFFIC_TYPES)[number];

/** Envelope type of every rcs.events.v1 event; what happened is `payload.event.event_type`. */
export const RCS_EVENT = 'rcs.event';

/** Envelope type of rcs.outbound.v1. */
export const RCS_OUTBOUND_EVENT = 'rcs.outbound';

const time = z.iso.datetime({ offset: true });

/**
 * The webhook event body (spec 2.5 "Webhook event payload", 6.3), as delivered to webhooks.
 * Members beyond the table's are kept (loose): the event vocabulary may grow (spec 9).
 */
export const rcsWebhookEventSchema = z.looseObject({
  event_type: z
    .string()
    .min(1)
    .describe('rcs.in.text, rcs.out.delivered, test.rcs.out.delivered, ...'),
  agent_id: z.string().min(1),
  send_time: time,
  event_id: z
    .string()
    .regex(/^evt_.+/)
    .describe('`evt_` + random; unique per occurrence.'),
  create_time: time.optional(),
  message_id: z.string().optional().describe('Message-related events.'),
  client_message_id: z.string().optional().describe('Only if supplied on send.'),
  sender_phone_number: z.string().optional(),
  text: z.string().optional(),
  content_message: z
    .object({
      suggestion_response: z.object({
        postback_data: z.string(),
        text: z.string(),
        type: z.enum(['REPLY', 'ACTION']),
      }),
    })
    .optional(),
  user_file: z.looseObject({}).optional(),
  reason: z.string().optional().describe('rcs.out.failed only.'),
  sms_transaction_id: z.string().optional().describe('sms.out.sent only.'),
});
export type RcsWebhookEvent = z.infer<typeof rcsWebhookEventSchema>;

/** `rcs.events.v1`, key = agent id: one RCS event for the agent's webhooks. */
export const rcsDomainEventSchema = z.object({
  agentId: z.string().min(1),
  /** The account whose message it concerns; absent for inbound events of the agent. */
  accountId: z.string().optional(),
  /** The message it concerns (outbound events). */
  messageId: z.string().optional(),
  event: rcsWebhookEventSchema,
});
export type RcsDomainEvent = z.infer<typeof rcsDomainEventSchema>;

/**
 * `rcs.outbound.v1`, key = agent id: an accepted message for the delivery worker. `content` is
 * the request's `message` as validated (snake_case members of the RCS OpenAPI `Message`).
 */
export const rcsOutboundSchema = z.object({
  messageId: z.string().min(1),
  accountId: z.string().min(1),
  agentId: z.string().min(1),
  recipient: z.string().regex(E164_PATTERN).describe('The recipient, E.164 (7 to 15 digits).'),
  messageTrafficType: z.enum(RCS_TRAFFIC_TYPES),
  clientMessageId: z.string().nullable(),
  content: z.record(z.string(), z.unknown()),
  acceptedAt: time,
  /**
   * The SMS sent instead when the message cannot go over RCS (not capable, TTL expired, RBM
   * refused); only on accounts the operator enabled SMS fallback for. Sender and text already
   * passed the SMS rules (@msg/sms-text). Absent in events from before the fallback: none.
   */
  smsFallback: z
    .object({ sender: z.string().min(1), text: z.string().min(1) })
    .nullable()
    .optional(),
  /** The request's `ttl` (seconds); null or absent: RBM's default. */
  ttlSeconds: z.number().int().positive().nullable().optional(),
});
export type RcsOutbound = z.infer<typeof rcsOutboundSchema>;

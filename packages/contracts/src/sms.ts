import { z } from 'zod';

/**
 * Payloads of the SMS delivery path. sms, batch and the reply-path services produce
 * `sms.outbound.v1`; the smsc-connector (the only SMPP speaker) consumes it and produces
 * `sms.status.v1` and `sms.inbound.v1`.
 */

/** Which service owns a message; status events are routed back to it by this. */
/** `rcs`: the SMS fallback of an RCS message that could not go over RCS (services/rcs). */
export const SMS_SOURCES = ['sms', 'batch', 'replypath', 'replypath-legacy', 'rcs'] as const;
export type SmsSource = (typeof SMS_SOURCES)[number];

export type SmsEncoding = 'GSM-7' | 'UCS-2';

/** `sms.outbound.v1`, key = account id (per-account order and throughput). Event type `sms.outbound`. */
export interface SmsOutbound {
  /** uuid chosen by the owner; the connector submits a given id at most once where it can tell. */
  messageId: string;
  accountId: string;
  source: SmsSource;
  /** Sender: E.164 with +, alphanumeric (up to 11) or shortcode, already validated. */
  from: string;
  /** Recipient, E.164 with +. */
  to: string;
  text: string;
  encoding: SmsEncoding;
  /** Number of SMS parts the text needs (1..10). */
  parts: number;
  /** Ask the SMSC for a delivery receipt. */
  deliveryReport: boolean;
  /** Validity period in minutes; the SMSC default when absent. */
  validityMinutes?: number;
  /** Messages per second this account may submit (its contract); default 100. */
  throughputPerSecond?: number;
}

export const SMS_OUTBOUND_EVENT = 'sms.outbound';

export type SmsState = 'accepted' | 'submitted' | 'delivered' | 'failed' | 'expired';

/** `sms.status.v1`, key = message id. Event type `sms.status`. */
export interface SmsStatus {
  messageId: string;
  accountId: string;
  source: SmsSource;
  /** Never `accepted`: that is the owner's own state before the connector saw the message. */
  state: Exclude<SmsState, 'accepted'>;
  /** The SMSC's message id of each part, in part order (once submitted). */
  smscMessageIds: string[];
  parts: number;
  /** When the SMSC answered or the receipt says the message was done. */
  at: string;
  /** Why it failed or expired: the SMPP command status or the receipt's stat/err. */
  error?: { smppStatus?: number; receiptStat?: string; receiptError?: string; description: string };
}

export const SMS_STATUS_EVENT = 'sms.status';

/**
 * Kafka header of every sms.status.v1 record: the payload's `source`. Four owners read the topic
 * and each wants only its own reports, so the others are passed over on the header alone,
 * without decoding and checking the event (a record without it is decoded as before).
 */
export const SMS_SOURCE_HEADER = 'sms-source';

/** `sms.inbound.v1`, key = destination number. Event type `sms.inbound`. */
export interface SmsInbound {
  /** Sender of the inbound SMS, E.164 with +. */
  from: string;
  /** The number it was sent to (a reply-path or service number), E.164 with +. */
  to: string;
  text: string;
  receivedAt: string;
  smscMessageId?: string;
}

export const SMS_INBOUND_EVENT = 'sms.inbound';

const isoTime = z.iso.datetime({ offset: true });
const source = z.enum(SMS_SOURCES).describe('The service that owns the message.');

export const smsOutboundSchema: z.ZodType<SmsOutbound> = z.object({
  messageId: z.string().min(1),
  accountId: z.string().min(1),
  source,
  from: z.string().min(1),
  to: z.string().min(1),
  text: z.string(),
  encoding: z.enum(['GSM-7', 'UCS-2']),
  parts: z.number().int().min(1).max(10),
  deliveryReport: z.boolean(),
  validityMinutes: z.number().int().positive().optional(),
  throughputPerSecond: z.number().positive().optional(),
});

export const smsStatusSchema: z.ZodType<SmsStatus> = z.object({
  messageId: z.string().min(1),
  accountId: z.string().min(1),
  source,
  state: z.enum(['submitted', 'delivered', 'failed', 'expired']),
  smscMessageIds: z.array(z.string()),
  parts: z.number().int().min(0),
  at: isoTime,
  error: z
    .object({
      smppStatus: z.number().int().optional(),
      receiptStat: z.string().optional(),
      receiptError: z.string().optional(),
      description: z.string(),
    })
    .optional(),
});

export const smsInboundSchema: z.ZodType<SmsInbound> = z.object({
  from: z.string().min(1),
  to: z.string().min(1),
  text: z.string(),
  receivedAt: isoTime,
  smscMessageId: z.string().optional(),
});

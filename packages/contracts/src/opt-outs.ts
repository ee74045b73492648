import { E164_PATTERN } from '@msg/phone/e164';
import { z } from 'zod';

/**
 * `optouts.v1` (compacted), key `<accountId>:<msisdn>`: whether one recipient has opted out of one
 * account's messages. Producers: admin (operators' edits) and the owners of platform numbers that
 * saw a stop or start word in an inbound SMS (sms, replypath). Every service that sends keeps a
 * replica (`@msg/optout`) and refuses to send to an opted-out recipient. Event type `optout.changed`.
 */
export interface OptOutChange {
  accountId: string;
  /** The recipient, E.164 with +. */
  msisdn: string;
  /** true: opted out (STOP); false: opted in again (START, or an operator's removal). */
  optedOut: boolean;
  /** The keyword of the inbound SMS, as normalised (upper case); absent for operators' edits. */
  keyword?: string;
  source: OptOutSource;
  /** When the change happened; replicas keep the latest per key (last writer wins). */
  at: string;
}

export const OPT_OUT_SOURCES = ['inbound', 'operator'] as const;
export type OptOutSource = (typeof OPT_OUT_SOURCES)[number];

export const OPT_OUT_EVENT = 'optout.changed';

/** The message key of `optouts.v1`: one key per (account, recipient), so compaction keeps the latest. */
export function optOutKey(accountId: string, msisdn: string): string {
  return `${accountId}:${msisdn}`;
}

export const optOutChangeSchema: z.ZodType<OptOutChange> = z.object({
  accountId: z.string().min(1),
  msisdn: z.string().regex(E164_PATTERN).describe('The recipient, E.164 with +.'),
  optedOut: z.boolean().describe('true: opted out; false: opted in again.'),
  keyword: z
    .string()
    .min(1)
    .optional()
    .describe('The inbound keyword that caused it (upper case).'),
  source: z.enum(OPT_OUT_SOURCES).describe('An inbound SMS, or an operator.'),
  at: z.iso.datetime({ offset: true }).describe('When it happened; the latest per key wins.'),
});

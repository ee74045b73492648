import { z } from 'zod';

/**
 * `senders.protected.v1` (compacted, one key): the operator's list of protected sender names —
 * banks, authorities — that no account may send as unless the name is registered to it
 * (`checkSenderPermission` of @msg/sms-text). Each change publishes the whole list, so the latest
 * event is all a reader needs and compaction keeps just that one. The list is short (an operator
 * keeps hundreds, at most MAX_PROTECTED_SENDERS), so a whole list per change costs nothing.
 * Producer: admin. Readers: every service that sends SMS, through `@msg/auth`'s directory.
 */
export interface ProtectedSenders {
  /** The names as the operator wrote them (alphanumeric sender ids, 1 to 11 characters). */
  names: string[];
  /** Grows with every change: a reader keeps the highest it has seen, whatever the order. */
  version: number;
  updatedAt: string;
}

export const PROTECTED_SENDERS_EVENT = 'senders.protected';

/** The one message key of `senders.protected.v1`: compaction keeps its latest list. */
export const PROTECTED_SENDERS_KEY = 'protected-senders';

/** Most names the list may hold (admin refuses more); one event stays far below Kafka's 1 MB. */
export const MAX_PROTECTED_SENDERS = 5000;

export const protectedSendersSchema: z.ZodType<ProtectedSenders> = z.object({
  names: z
    .array(z.string().min(1).max(11))
    .max(MAX_PROTECTED_SENDERS)
    .describe('The protected names, as the operator wrote them.'),
  version: z.number().int().min(0).describe('Grows with every change; the highest wins.'),
  updatedAt: z.iso.datetime({ offset: true }).describe('When the list last changed.'),
});

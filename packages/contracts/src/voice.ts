import { z } from 'zod';

/** Envelope type of every voice.events.v1 event; what happened is `payload.status`. */
export const VOICE_EVENT = 'voice.message';

/**
 * `failure_code` of spec 3.4: 1 = not delivered (no answer after all attempts, busy, rejected),
 * 5 = internal error (synthesis or our side of the call failed).
 */
export const VOICE_FAILURE_CODES = [1, 5] as const;
export type VoiceFailureCode = (typeof VOICE_FAILURE_CODES)[number];

const time = z.iso.datetime({ offset: true });

/**
 * `voice.events.v1`, key = transaction id: a text-to-voice message changed state (spec 3.4).
 * `accepted` when the send is stored; `completed` or `failed` once, after the final attempt.
 */
export const voiceDomainEventSchema = z.object({
  transactionId: z.string().min(1),
  accountId: z.string().min(1),
  status: z.enum(['accepted', 'completed', 'failed']),
  /** Set when completed: seconds from answer to hang-up. */
  durationSeconds: z.number().int().min(0).nullable(),
  /** Set when failed. */
  failureCode: z.union([z.literal(1), z.literal(5)]).nullable(),
  /** Calls placed so far (1..3). */
  attempts: z.number().int().min(0),
  clientReference: z.string().nullable(),
  at: time,
});
export type VoiceDomainEvent = z.infer<typeof voiceDomainEventSchema>;

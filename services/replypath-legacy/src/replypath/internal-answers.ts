import { z } from '@msg/config';

// The replypath service's internal send API (shared decision of issue 12): parsed leniently, only
// what this interface answers with is read and unknown keys are ignored.

const sentMessage = z.object({
  DestinationAddress: z.string(),
  OriginatorAddress: z.string().optional(),
  TransactionId: z.string(),
});

/** 200: one entry per recipient. */
export const sentAnswerSchema = z.object({ results: z.array(sentMessage).min(1) });

export type SentMessage = z.output<typeof sentMessage>;

const detail = z.object({
  loc: z.array(z.union([z.string(), z.number()]).transform(String)),
  msg: z.string(),
  type: z.string(),
});

/**
 * The current interface's error body (spec 7.2): `details` is one object there; an array of them
 * (the platform's usual form) is read too.
 */
export const errorAnswerSchema = z.object({
  code: z.string(),
  message: z.string(),
  details: z
    .union([detail, z.array(detail)])
    .optional()
    .transform((value) => (value === undefined ? [] : Array.isArray(value) ? value : [value])),
});

export type ErrorAnswer = z.output<typeof errorAnswerSchema>;

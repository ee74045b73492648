import { z } from '@msg/config';
import type { CallbackRequest } from '@msg/contracts';

const httpUrl = z
  .string()
  .refine(
    (raw) => URL.canParse(raw) && ['http:', 'https:'].includes(new URL(raw).protocol),
    'expected an absolute http(s) URL',
  );

/** The payload of callbacks.v1 as the notifier accepts it; producers are other services. */
const callbackRequestSchema = z.object({
  callbackId: z.string().min(1).max(200),
  accountId: z.string().min(1),
  url: httpUrl,
  method: z.enum(['GET', 'POST']),
  query: z.record(z.string(), z.string()).optional(),
  body: z.unknown().optional(),
  giveUpAt: z.iso.datetime({ offset: true }).optional(),
  origin: z.object({ service: z.string(), kind: z.string() }),
});

/** The request, or the problems that make it undeliverable (paths only: values may be private). */
export function parseCallbackRequest(
  payload: unknown,
): { request: CallbackRequest } | { problems: string[] } {
  const parsed = callbackRequestSchema.safeParse(payload);
  if (parsed.success) {
    const { query, body, giveUpAt, ...required } = parsed.data;
    return {
      request: {
        ...required,
        ...(query !== undefined && { query }),
        ...(body !== undefined && { body }),
        ...(giveUpAt !== undefined && { giveUpAt }),
      },
    };
  }
  return {
    problems: parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`),
  };
}

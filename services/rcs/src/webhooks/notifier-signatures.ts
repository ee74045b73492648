import { z } from '@msg/config';
import { UpstreamUnavailableError } from '@msg/http';
import type { Logger } from '@msg/logger';
import got, { RequestError } from 'got';

export interface NotifierSignaturesOptions {
  /** Base URL of the notifier (NOTIFIER_URL), its internal address. */
  baseUrl: string;
  /** Bearer token of its internal API (NOTIFIER_INTERNAL_TOKEN). */
  token: string;
  timeoutMs: number;
  logger: Logger;
}

const answerSchema = z.object({
  headers: z.object({
    'webhook-id': z.string(),
    'webhook-timestamp': z.string(),
    'webhook-signature': z.string(),
  }),
});

export type StandardWebhookHeaders = z.infer<typeof answerSchema>['headers'];

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Client of `POST {NOTIFIER_URL}/internal/v1/signatures`: the Standard Webhooks headers of one
 * attempt, signed by the notifier with the account's callback signing secrets, which never leave
 * it. A callback is never sent unsigned: when the notifier does not answer, the caller gets 503.
 */
export function createNotifierSignatures({
  baseUrl,
  token,
  timeoutMs,
  logger,
}: NotifierSignaturesOptions) {
  const http = got.extend({
    prefixUrl: baseUrl,
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
    timeout: { request: timeoutMs },
    retry: { limit: 1, methods: ['POST'] },
    throwHttpErrors: false,
  });
  return {
    async sign(accountId: string, body: string): Promise<StandardWebhookHeaders> {
      const response = await http
        .post('internal/v1/signatures', { json: { account_id: accountId, body } })
        .catch((error: unknown) => {
          logger.warn('notifier signing call failed', {
            reason: error instanceof RequestError ? error.code : 'unexpected',
          });
          return undefined;
        });
      const parsed =
        response?.statusCode === 200 ? answerSchema.safeParse(parseJson(response.body)) : undefined;
      if (!parsed?.success) {
        if (response) logger.error('notifier refused to sign', { status: response.statusCode });
        throw new UpstreamUnavailableError(
          'callback signing is not available now; try again later',
        );
      }
      return parsed.data.headers;
    },
  };
}

export type NotifierSignatures = ReturnType<typeof createNotifierSignatures>;

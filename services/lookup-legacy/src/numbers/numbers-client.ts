import { UpstreamUnavailableError } from '@msg/http';
import type { Logger } from '@msg/logger';
import got, { HTTPError, RequestError } from 'got';
import { type NumbersAnswer, numbersAnswerSchema } from './numbers-answer.js';

export interface NumbersClientOptions {
  /** Base URL of the numbers service, e.g. http://numbers; no trailing slash needed. */
  baseUrl: string;
  /** Bearer token of its internal API. */
  token: string;
  /** Per attempt; one retry follows a network failure, a timeout or a 5xx. */
  timeoutMs: number;
  logger: Logger;
}

export interface NumbersClient {
  /** The number's base answer, with its live status when `live`. Throws UpstreamUnavailableError. */
  lookup(digits: string, options: { live: boolean }): Promise<NumbersAnswer>;
}

/** Seconds a caller is asked to wait after a 503 of this interface. */
export const RETRY_AFTER_SECONDS = 5;

const unavailable = () =>
  new UpstreamUnavailableError(
    'Number lookup is not available now; try again later',
    RETRY_AFTER_SECONDS,
  );

/** What went wrong with a call, for the log line (never the number or the token). */
function failureOf(error: unknown): Record<string, unknown> {
  if (error instanceof HTTPError) return { reason: 'status', status: error.response.statusCode };
  if (error instanceof RequestError) return { reason: error.code };
  return { reason: 'unexpected', error };
}

/**
 * Client of `GET {NUMBERS_URL}/internal/v1/numbers/{digits}` (Bearer token). The legacy levels
 * read only the base answer and, for basic and advanced, the live status; porting history is
 * asked with it because the internal API serves the two aspects together.
 */
export function createNumbersClient({
  baseUrl,
  token,
  timeoutMs,
  logger,
}: NumbersClientOptions): NumbersClient {
  const http = got.extend({
    prefixUrl: baseUrl,
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
    timeout: { request: timeoutMs },
    retry: { limit: 1, methods: ['GET'], backoffLimit: 200 },
    responseType: 'json',
  });
  return {
    async lookup(digits, { live }) {
      let body: unknown;
      try {
        body = await http
          .get(`internal/v1/numbers/${digits}`, {
            ...(live && { searchParams: { aspects: 'live_status,porting_history' } }),
          })
          .json();
      } catch (error) {
        logger.warn('numbers service call failed', failureOf(error));
        throw unavailable();
      }
      const parsed = numbersAnswerSchema.safeParse(body);
      if (!parsed.success) {
        logger.error('numbers service answer unreadable', {
          issues: parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`),
        });
        throw unavailable();
      }
      return parsed.data;
    },
  };
}

import {
  HttpError,
  RateLimitedError,
  UnauthorizedError,
  UpstreamUnavailableError,
  ValidationError,
} from '@msg/http';
import type { Logger } from '@msg/logger';
import got, { RequestError, type Response } from 'got';
import { REFUSALS } from '../access/legacy-access.js';
import {
  type ErrorAnswer,
  errorAnswerSchema,
  type SentMessage,
  sentAnswerSchema,
} from './internal-answers.js';

export interface ReplypathClientOptions {
  /** Base URL of the replypath service, e.g. http://replypath; no trailing slash needed. */
  baseUrl: string;
  /** Bearer token of its internal API. */
  token: string;
  timeoutMs: number;
  logger: Logger;
}

export interface SendRequest {
  accountId: string;
  To: string;
  Msg: string;
}

export interface ReplypathClient {
  /**
   * Sends through the reply-path service: one entry per recipient. Throws its refusals as
   * HttpErrors of this interface (ValidationError with its details, RateLimitedError,
   * UnauthorizedError, UpstreamUnavailableError); an unreadable success is a plain Error (500).
   */
  send(request: SendRequest): Promise<SentMessage[]>;
}

/** The replypath service's code for a prepaid balance that does not cover the send. */
export const INSUFFICIENT_FUNDS = 'INSUFFICIENT_FUNDS';

/** Seconds a caller is asked to wait after a 503 of this interface. */
export const RETRY_AFTER_SECONDS = 5;

const unavailable = (retryAfterSeconds = RETRY_AFTER_SECONDS) =>
  new UpstreamUnavailableError(
    'The reply-path service is not available now; try again later',
    retryAfterSeconds,
  );

function retryAfterOf(header: string | string[] | undefined): number {
  const seconds = Number(Array.isArray(header) ? header[0] : header);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : RETRY_AFTER_SECONDS;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The reply-path service's refusal, as this interface answers it. */
function refusal(status: number, answer: ErrorAnswer, retryAfter: number): HttpError | undefined {
  switch (status) {
    case 400:
      // Not the caller's parameter: the account this service authenticated is not (yet) in the
      // replypath service's directory; both follow accounts.v1, so it catches up in a moment.
      if (answer.details.some((detail) => detail.loc.includes('accountId'))) {
        return unavailable(1);
      }
      // Its details are kept: the send relocates them to where the caller put the field.
      return answer.code === 'VALIDATION_ERROR'
        ? new ValidationError(answer.message, answer.details)
        : new HttpError(400, answer.code, answer.message, answer.details);
    // The account itself is refused: rule 5.3's 401. Its exact prepaid debit (403, or 402, code
    // INSUFFICIENT_FUNDS) is the reason "prepaid account without funds", answered with the same
    // message as when the directory already knew the balance was empty.
    case 402:
    case 403:
      return new UnauthorizedError(
        answer.code === INSUFFICIENT_FUNDS ? REFUSALS.noFunds : answer.message,
      );
    // Per-account rate, or no free number for the recipient until a reservation ends.
    case 429:
      return new RateLimitedError(retryAfter, answer.message);
    default:
      return undefined;
  }
}

/**
 * Client of `POST {REPLYPATH_URL}/internal/v1/sendsms` (Bearer token), the one implementation of
 * pool, reservations and sending. Never retried: a send whose answer was lost may have gone out,
 * and a second one would allocate a second number.
 */
export function createReplypathClient({
  baseUrl,
  token,
  timeoutMs,
  logger,
}: ReplypathClientOptions): ReplypathClient {
  const http = got.extend({
    prefixUrl: baseUrl,
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
    timeout: { request: timeoutMs },
    retry: { limit: 0 },
    throwHttpErrors: false,
    responseType: 'text',
  });
  return {
    async send({ accountId, To, Msg }) {
      let response: Response<string>;
      try {
        response = await http.post('internal/v1/sendsms', {
          json: { accountId, source: 'replypath-legacy', To, Msg },
          responseType: 'text',
        });
      } catch (error) {
        logger.warn('replypath service call failed', {
          reason: error instanceof RequestError ? error.code : 'unexpected',
        });
        throw unavailable();
      }
      const status = response.statusCode;
      const body = parseJson(String(response.body));
      if (status === 200) {
        const parsed = sentAnswerSchema.safeParse(body);
        if (parsed.success) return parsed.data.results;
        // Our two services disagree on the contract: an application error, not an outage.
        throw new Error(
          `replypath answer unreadable: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
        );
      }
      const answer = errorAnswerSchema.safeParse(body);
      const retryAfter = retryAfterOf(response.headers['retry-after']);
      const refused = answer.success && refusal(status, answer.data, retryAfter);
      if (refused) throw refused;
      // 401 (a token mismatch), 404 (an older replypath), 5xx, or a body we cannot read.
      logger[status >= 500 ? 'warn' : 'error']('replypath service refused the call', {
        status,
        code: answer.success ? answer.data.code : undefined,
      });
      throw unavailable(status === 503 ? retryAfter : RETRY_AFTER_SECONDS);
    },
  };
}

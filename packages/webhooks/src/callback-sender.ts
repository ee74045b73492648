import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { Logger } from '@msg/logger';
import got, { type PlainResponse, RequestError } from 'got';
import { type CallbackSigning, signatureHeaders, signedContent } from './standard-webhooks.js';
import { createTargetGuard, TARGET_NOT_ALLOWED, TARGET_NOT_ALLOWED_CODE } from './target-guard.js';

export interface CallbackSenderOptions {
  logger: Logger;
  /** Whole-request deadline (connect, send, wait, read). Default 10 s. */
  timeoutMs?: number;
  /** Allow loopback, private, link-local, unique-local and multicast targets. Default false. */
  allowPrivateTargets?: boolean;
  /** Hosts allowed whatever they resolve to (an internal receiver the operator trusts). */
  allowedHosts?: string[];
  userAgent: string;
}

export interface OutboundCallback {
  /** Absolute http(s) URL; an existing query (e.g. `?token=`) is kept. */
  url: string;
  method: 'GET' | 'POST';
  /** Appended to the URL's query, URL-encoded. */
  query?: Record<string, string>;
  /** Sent as JSON with POST. */
  body?: unknown;
  /** Sent with POST exactly as given (application/json), instead of `body`. */
  bodyText?: string;
  headers?: Record<string, string>;
  /**
   * Signs the request by the Standard Webhooks scheme (webhook-id, webhook-timestamp,
   * webhook-signature over the body, or a GET's query string), with every secret given.
   */
  signing?: CallbackSigning;
}

export interface SendResult {
  /** The receiver answered 2xx. */
  ok: boolean;
  /** The receiver's status, when it answered at all. */
  status?: number;
  /** Why it failed, without the URL's query or the body (safe to log). */
  error?: string;
  durationMs: number;
  /** Worth another attempt later: network errors, timeouts, 5xx, 408 and 429. */
  retryable: boolean;
}

export interface CallbackSender {
  /** One attempt, never throwing and never retrying: the caller schedules retries. */
  send(request: OutboundCallback): Promise<SendResult>;
  /** Closes kept-alive connections. */
  close(): void;
}

const RETRYABLE_STATUSES = new Set([408, 429]);

/** The URL with `query` appended, the existing query left exactly as the receiver wrote it. */
export function withQuery(url: URL, query: Record<string, string> | undefined): URL {
  const extra = Object.entries(query ?? {})
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`)
    .join('&');
  if (extra === '') return url;
  const target = new URL(url);
  const existing = target.search.replace(/^\?/, '');
  target.search = existing === '' ? extra : `${existing}&${extra}`;
  return target;
}

function isRetryableStatus(status: number): boolean {
  return status >= 500 || RETRYABLE_STATUSES.has(status);
}

function refused(durationMs: number): SendResult {
  return { ok: false, retryable: false, error: TARGET_NOT_ALLOWED, durationMs };
}

/**
 * Sends outbound HTTP callbacks with got: one attempt per call (retries are the notifier's, kept
 * in its database so they survive restarts), a deadline, redirects followed only within the same
 * origin, and private addresses refused at connect time unless allowed.
 */
export function createCallbackSender({
  logger,
  timeoutMs = 10_000,
  allowPrivateTargets = false,
  allowedHosts = [],
  userAgent,
}: CallbackSenderOptions): CallbackSender {
  const guard = createTargetGuard({ allowPrivateTargets, allowedHosts });
  const log = logger.child({ component: 'callback-sender' });
  // Agents of our own: a pooled socket of another client, opened under other rules, must never
  // carry our requests.
  const agent = {
    http: new HttpAgent({ keepAlive: true }),
    https: new HttpsAgent({ keepAlive: true }),
  };

  async function send(request: OutboundCallback): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    if (!URL.canParse(request.url)) {
      return { ok: false, retryable: false, error: 'invalid callback url', durationMs: 0 };
    }
    const base = new URL(request.url);
    if (base.protocol !== 'http:' && base.protocol !== 'https:') {
      return { ok: false, retryable: false, error: 'callback url must be http(s)', durationMs: 0 };
    }
    if (!guard.literalAllowed(base.hostname)) {
      log.warn('callback target refused', { target: base.origin });
      return refused(0);
    }
    // Query members go on the URL for every method: batch events POST to `url?token=...`.
    const target = withQuery(base, request.query);
    const body = request.method === 'POST' ? bodyOf(request) : undefined;
    const headers: Record<string, string> = {
      ...request.headers,
      'user-agent': userAgent,
      ...(body !== undefined && { 'content-type': 'application/json' }),
      // Signed at each attempt: a retry carries a fresh timestamp.
      ...(request.signing &&
        signatureHeaders(request.signing, signedContent(request.method, target, body))),
    };
    try {
      const response = await got(target.href, {
        method: request.method,
        headers,
        ...(body !== undefined && { body }),
        timeout: { request: timeoutMs },
        retry: { limit: 0 },
        throwHttpErrors: false,
        followRedirect: (redirect: PlainResponse) => sameOrigin(redirect, target),
        dnsLookup: guard.lookup,
        agent,
      });
      const status = response.statusCode;
      if (status >= 200 && status < 300)
        return { ok: true, status, retryable: false, durationMs: elapsed() };
      return {
        ok: false,
        status,
        error: `HTTP ${status}`,
        retryable: isRetryableStatus(status),
        durationMs: elapsed(),
      };
    } catch (error) {
      if (isRefusal(error)) {
        log.warn('callback target refused', { target: base.origin });
        return refused(elapsed());
      }
      return { ok: false, retryable: true, error: describeFailure(error), durationMs: elapsed() };
    }
  }

  return {
    send,
    close() {
      agent.http.destroy();
      agent.https.destroy();
    },
  };
}

/** The raw text when given (signed by the requester: sent unchanged), else the JSON of body. */
function bodyOf(request: OutboundCallback): string | undefined {
  if (request.bodyText !== undefined) return request.bodyText;
  return request.body !== undefined ? JSON.stringify(request.body) : undefined;
}

/** A redirect elsewhere could lead anywhere the customer chose after we validated the URL. */
function sameOrigin(redirect: PlainResponse, from: URL): boolean {
  const location = redirect.headers.location;
  return location !== undefined && URL.canParse(location, from.href)
    ? new URL(location, from).origin === from.origin
    : false;
}

function isRefusal(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if ('code' in e && e.code === TARGET_NOT_ALLOWED_CODE) return true;
  }
  return false;
}

/** The error code (ETIMEDOUT, ECONNREFUSED, ...) or message; got's messages carry no URL query. */
function describeFailure(error: unknown): string {
  if (error instanceof RequestError)
    return error.code ? `${error.code}: ${error.message}` : error.message;
  return error instanceof Error ? error.message : String(error);
}

import {
  type HttpError,
  jsonErrorFormat,
  problemErrorFormat,
  UpstreamUnavailableError,
} from '@msg/http';
import type { Request } from 'express';
import type { ErrorStyle } from './routes.js';

export interface RenderedError {
  status: number;
  contentType: string;
  headers: Record<string, string>;
  body: unknown;
}

/**
 * Number intelligence lists its error types (spec 7.6); its clients handle 503
 * `/service-unavailable` with Retry-After but know no 502 or 504. So on problem routes an
 * unreachable or slow upstream is "lookup cannot be completed now": 503, retry shortly.
 */
const UPSTREAM_FAILURE = new Set([502, 503, 504]);
const RETRY_AFTER_SECONDS = 5;

/** An error the gateway produces itself, in the format of the interface the route belongs to. */
export function renderGatewayError(
  error: HttpError,
  style: ErrorStyle,
  req: Request,
  problemTypeBase: string,
): RenderedError {
  if (style === 'problem') return renderProblem(error, req, problemTypeBase);
  // The services' own default format, so a caller cannot tell who answered from the shape.
  const { status, body } = jsonErrorFormat(error, req);
  return {
    status,
    contentType: 'application/json; charset=utf-8',
    headers: { ...error.headers },
    body,
  };
}

/** RFC 9457 in the numbers service's own format (@msg/http problemErrorFormat). */
function renderProblem(error: HttpError, req: Request, problemTypeBase: string): RenderedError {
  const shown = UPSTREAM_FAILURE.has(error.status)
    ? new UpstreamUnavailableError(error.message, RETRY_AFTER_SECONDS)
    : error;
  const rendered = problemErrorFormat(problemTypeBase)(shown, req);
  return {
    status: rendered.status,
    contentType: rendered.contentType ?? 'application/problem+json; charset=utf-8',
    headers: { ...shown.headers, ...rendered.headers },
    body: rendered.body,
  };
}

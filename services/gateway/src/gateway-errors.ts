import { STATUS_CODES } from 'node:http';
import { type HttpError, jsonErrorFormat } from '@msg/http';
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
const RETRY_AFTER_SECONDS = '5';

const PROBLEM_TYPES: Readonly<Record<number, string>> = {
  404: 'not-found',
  405: 'method-not-allowed',
  413: 'payload-too-large',
  500: 'internal-error',
  503: 'service-unavailable',
};

/** An error the gateway produces itself, in the format of the interface the route belongs to. */
export function renderGatewayError(
  error: HttpError,
  style: ErrorStyle,
  req: Request,
  problemTypeBase: string,
): RenderedError {
  if (style === 'problem') return renderProblem(error, req.path, problemTypeBase);
  // The services' own default format, so a caller cannot tell who answered from the shape.
  const { status, body } = jsonErrorFormat(error, req);
  return {
    status,
    contentType: 'application/json; charset=utf-8',
    headers: { ...error.headers },
    body,
  };
}

/** RFC 9457; `instance` is the path only, never the query string. */
function renderProblem(error: HttpError, instance: string, problemTypeBase: string): RenderedError {
  const upstreamFailure = UPSTREAM_FAILURE.has(error.status);
  const status = upstreamFailure ? 503 : error.status;
  const slug = PROBLEM_TYPES[status] ?? error.code.toLowerCase().replaceAll('_', '-');
  return {
    status,
    contentType: 'application/problem+json; charset=utf-8',
    headers: upstreamFailure
      ? { ...error.headers, 'Retry-After': RETRY_AFTER_SECONDS }
      : { ...error.headers },
    body: {
      type: `${problemTypeBase.replace(/\/+$/, '')}/${slug}`,
      title: STATUS_CODES[status] ?? 'Error',
      status,
      detail: error.message,
      instance,
    },
  };
}

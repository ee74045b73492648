import { deprecationHeaders, VOICE_LEGACY_DEPRECATION } from '@msg/contracts';
import {
  detailErrorFormat,
  formTextErrorFormat,
  type HttpError,
  jsonErrorFormat,
  problemErrorFormat,
  statusLineErrorFormat,
  UpstreamUnavailableError,
} from '@msg/http';
import type { Request } from 'express';
import { type PublicRoute, routingPath } from './routes.js';

export interface RenderedError {
  status: number;
  contentType: string;
  headers: Record<string, string>;
  body: unknown;
}

/**
 * Number intelligence lists its error types (spec 7.6); its clients handle 503
 * `/service-unavailable` with Retry-After but know no 502 or 504. So on problem routes an
 * unreachable or slow upstream is "lookup cannot be completed now": 503, retry shortly. The
 * legacy reply-path's table (7.3) has no 502 or 504 either: 503 "temporary overload".
 */
const UPSTREAM_FAILURE = new Set([502, 503, 504]);
const RETRY_AFTER_SECONDS = 5;

/**
 * An error the gateway produces itself, in the format of the interface the route belongs to
 * (`json` when no route owns the path), with the route's deprecation headers when it has some.
 */
export function renderGatewayError(
  error: HttpError,
  route: Pick<PublicRoute, 'errors' | 'deprecation'> | undefined,
  req: Request,
  problemTypeBase: string,
): RenderedError {
  const rendered = renderInStyle(error, route?.errors ?? 'json', req, problemTypeBase);
  if (!route?.deprecation) return rendered;
  return {
    ...rendered,
    headers: { ...rendered.headers, ...deprecationHeaders(route.deprecation) },
  };
}

function renderInStyle(
  error: HttpError,
  style: PublicRoute['errors'],
  req: Request,
  problemTypeBase: string,
): RenderedError {
  if (style === 'problem') return renderProblem(error, req, problemTypeBase);
  if (style === 'status-line') return renderStatusLine(error);
  // As routed: '/txt2voice//v1/sendtts' and '/txt2voice/x/../v1/sendtts' are refused as sendtts.
  if (style === 'detail' && routingPath(req.path).startsWith(VOICE_LEGACY_PATH))
    return renderFormText(error, req);
  if (style === 'detail') {
    // Text-to-voice (spec 7.5): `{detail: [...]}`, as the voice service answers.
    const { status, body } = detailErrorFormat(error, req);
    return {
      status,
      contentType: 'application/json; charset=utf-8',
      headers: { ...error.headers },
      body,
    };
  }
  // The services' own default format, so a caller cannot tell who answered from the shape.
  const { status, body } = jsonErrorFormat(error, req);
  return {
    status,
    contentType: 'application/json; charset=utf-8',
    headers: { ...error.headers },
    body,
  };
}

/** The text-to-voice simple HTTP interface, deprecated (spec 2.6, 4.6, 9): form text. */
const VOICE_LEGACY_PATH = '/txt2voice/v1/sendtts';

function renderFormText(error: HttpError, req: Request): RenderedError {
  const rendered = formTextErrorFormat(error, req);
  return {
    status: rendered.status,
    contentType: `${rendered.contentType}; charset=utf-8`,
    headers: { ...error.headers, ...deprecationHeaders(VOICE_LEGACY_DEPRECATION) },
    body: rendered.body,
  };
}

/** Legacy reply-path (@msg/http statusLineErrorFormat: 413 is a 400 there, 502 and 504 a 503). */
function renderStatusLine(error: HttpError): RenderedError {
  const shown = UPSTREAM_FAILURE.has(error.status)
    ? new UpstreamUnavailableError(error.message, RETRY_AFTER_SECONDS)
    : error;
  const rendered = statusLineErrorFormat()(shown);
  return {
    status: rendered.status,
    contentType: 'application/json; charset=utf-8',
    headers: { ...shown.headers, ...rendered.headers },
    body: rendered.body,
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

import { classifyDatabaseError } from '@msg/db/errors';
import type { Request } from 'express';
import { error as validatorErrors } from 'express-openapi-validator';
import {
  ConflictError,
  type ErrorDetail,
  ForbiddenError,
  HttpError,
  MalformedRequestError,
  MethodNotAllowedError,
  NotAcceptableError,
  NotFoundError,
  PayloadTooLargeError,
  UnauthorizedError,
  UnsupportedMediaTypeError,
  UpstreamUnavailableError,
  ValidationError,
} from './errors.js';
import { isRecord, matchedOperation, requestMediaTypes } from './openapi-request.js';

/**
 * Turns anything a request can throw into our error vocabulary: our own HttpErrors, the OpenAPI
 * validator's errors, body-parser's errors (recognised by their `type`), zlib errors from a bad
 * compressed body, database errors that are not bugs (fromDatabase), and errors carrying a 4xx
 * `status`/`statusCode`. Returns undefined for anything else (including a foreign 5xx), which the
 * error middleware answers with a 500 and an error id.
 */
export function translateError(err: unknown, req: Request): HttpError | undefined {
  if (err instanceof HttpError) return err;
  if (!isRecord(err)) return undefined;
  return (
    fromValidator(err, req) ?? fromBodyParser(err, req) ?? fromDatabase(err) ?? fromStatus(err)
  );
}

/** Seconds a client should wait before retrying while the database is unreachable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * Database errors caused by concurrency or an outage rather than by a bug, from pg or Prisma
 * (@msg/db classifyDatabaseError). The body says what happened in the caller's terms; which
 * constraint or statement it was goes only to the log (the error middleware logs it).
 * - a unique or exclusion constraint refused the write (two creates of one name raced): 409;
 * - a serialization failure or deadlock that the service did not retry: 409, to be retried;
 * - no connection, shutdown, too many connections: 503 with Retry-After.
 */
function fromDatabase(err: Record<string, unknown>): HttpError | undefined {
  switch (classifyDatabaseError(err)?.kind) {
    case 'unique':
      return new ConflictError('A resource with the same unique value already exists');
    case 'serialization':
      return new ConflictError('The request conflicted with a concurrent change; retry it');
    case 'unavailable':
      return new UpstreamUnavailableError(
        'Storage is temporarily unavailable; retry later',
        DATABASE_RETRY_AFTER_SECONDS,
      );
    default:
      return undefined;
  }
}

// The validator reports where a problem is as '/body/to' or '/query/limit'; our `loc` names the
// part of the request the way OpenAPI's `in` does.
const LOCATIONS: Record<string, string> = {
  body: 'body',
  query: 'query',
  params: 'path',
  headers: 'header',
  cookies: 'cookie',
};

function locationOf(path: string): string[] {
  const segments = path
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'));
  const [first, ...rest] = segments;
  if (first === undefined) return ['request'];
  return [LOCATIONS[first] ?? first, ...rest];
}

function detailOf(item: unknown): ErrorDetail {
  const path = isRecord(item) && typeof item.path === 'string' ? item.path : '';
  const message = isRecord(item) && typeof item.message === 'string' ? item.message : 'is invalid';
  const errorCode = isRecord(item) && typeof item.errorCode === 'string' ? item.errorCode : '';
  const keyword = errorCode.replace(/\.openapi\.validation$/, '');
  const loc = locationOf(path);
  // Ajv words these after the parent object; the detail is about the field itself.
  if (keyword === 'required') return { loc, msg: 'is required', type: 'missing' };
  if (keyword === 'additionalProperties' || keyword === 'unevaluatedProperties') {
    return { loc, msg: 'is not a known field', type: 'additionalProperties' };
  }
  if (message.startsWith('Unknown query parameter')) {
    return { loc, msg: 'is not a known query parameter', type: 'unknownParameter' };
  }
  if (message.startsWith('Empty value found')) {
    return { loc, msg: 'must not be empty', type: 'emptyValue' };
  }
  return { loc, msg: message, type: keyword || 'invalid' };
}

function validationError(items: unknown[]): ValidationError {
  const seen = new Set<string>();
  const details = items.map(detailOf).filter((detail) => {
    const key = `${detail.loc.join('.')}|${detail.type}|${detail.msg}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return ValidationError.of(details);
}

/** True when the request carries a body (RFC 9112 §6.3: a length or a transfer coding). */
function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function fromValidator(err: Record<string, unknown>, req: Request): HttpError | undefined {
  const items = Array.isArray(err.errors) ? err.errors : [];
  if (err instanceof validatorErrors.BadRequest) return validationError(items);
  if (err instanceof validatorErrors.NotFound) {
    return new NotFoundError(`No operation at ${req.path}`);
  }
  if (err instanceof validatorErrors.MethodNotAllowed) {
    const allow =
      isRecord(err.headers) && typeof err.headers.Allow === 'string' ? err.headers.Allow : '';
    const allowed = allow
      .split(',')
      .map((method) => method.trim().toUpperCase())
      .filter((method) => method !== '')
      .sort();
    return new MethodNotAllowedError(
      allowed,
      `${req.method} is not allowed at ${req.path}; allowed: ${allowed.join(', ')}`,
    );
  }
  if (err instanceof validatorErrors.UnsupportedMediaType) {
    const supported = requestMediaTypes(matchedOperation(req)?.operation ?? {});
    const contentType = req.headers['content-type'];
    if (contentType === undefined && !hasBody(req)) {
      return ValidationError.field(['body'], 'missing', 'is required');
    }
    return new UnsupportedMediaTypeError(
      `Content-Type ${contentType ?? '(none)'} is not supported here; send ${supported.join(' or ')}`,
    );
  }
  if (err instanceof validatorErrors.RequestEntityTooLarge) return new PayloadTooLargeError();
  if (err instanceof validatorErrors.NotAcceptable) return new NotAcceptableError();
  if (err instanceof validatorErrors.Unauthorized) return new UnauthorizedError();
  if (err instanceof validatorErrors.Forbidden) return new ForbiddenError();
  return undefined;
}

function fromBodyParser(err: Record<string, unknown>, req: Request): HttpError | undefined {
  switch (err.type) {
    case 'entity.parse.failed':
      // JSON.parse's own words quote the body and name its internals: they stay in the log.
      return new MalformedRequestError(
        req.is('json') || req.is('+json') ? 'body is not valid JSON' : 'body could not be parsed',
      );
    case 'entity.too.large':
      return new PayloadTooLargeError(
        typeof err.limit === 'number'
          ? `Request body is larger than the limit of ${err.limit} bytes`
          : 'Request body too large',
      );
    case 'parameters.too.many':
      return new PayloadTooLargeError('Request body has too many form parameters');
    case 'encoding.unsupported':
      return new UnsupportedMediaTypeError(
        `Content-Encoding ${String(err.encoding)} is not supported; use gzip, deflate, br or identity`,
      );
    case 'charset.unsupported':
      return new UnsupportedMediaTypeError(
        `charset ${String(err.charset)} is not supported; use utf-8`,
      );
    case 'request.size.invalid':
      return new MalformedRequestError('Request body length does not match Content-Length');
    case 'request.aborted':
      return new MalformedRequestError('Request aborted before the body was complete');
  }
  // A body that claims a Content-Encoding it does not have: zlib's Z_DATA_ERROR, Z_BUF_ERROR...
  if (typeof err.code === 'string' && err.code.startsWith('Z_')) {
    return new MalformedRequestError(
      `body is not valid ${String(req.headers['content-encoding'])} data`,
    );
  }
  return undefined;
}

function fromStatus(err: Record<string, unknown>): HttpError | undefined {
  const status = typeof err.status === 'number' ? err.status : err.statusCode;
  if (typeof status !== 'number' || status < 400 || status >= 500) return undefined;
  // http-errors marks messages safe to show with `expose`; others may carry internals.
  const message =
    err.expose === true && typeof err.message === 'string' ? err.message : 'Request rejected';
  switch (status) {
    case 400:
      return new MalformedRequestError(message);
    case 401:
      return new UnauthorizedError(message);
    case 403:
      return new ForbiddenError(message);
    case 404:
      return new NotFoundError(message);
    case 413:
      return new PayloadTooLargeError(message);
    case 415:
      return new UnsupportedMediaTypeError(message);
    default:
      return new HttpError(status, `HTTP_${status}`, message);
  }
}

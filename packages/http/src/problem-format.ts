import { STATUS_CODES } from 'node:http';
import type { Request } from 'express';
import type { ErrorResponse } from './error-format.js';
import { type HttpError, InternalError } from './errors.js';

/** The problem type slug of each error code; other codes become their kebab-case form. */
const PROBLEM_SLUGS: Readonly<Record<string, string>> = {
  UNAUTHORIZED: 'unauthorized',
  FORBIDDEN: 'forbidden',
  NOT_FOUND: 'not-found',
  METHOD_NOT_ALLOWED: 'method-not-allowed',
  RATE_LIMITED: 'rate-limited',
  SERVICE_UNAVAILABLE: 'service-unavailable',
  INTERNAL_ERROR: 'internal-error',
};

/** `QUOTA_EXCEEDED` → `quota-exceeded`. */
export function problemSlug(code: string): string {
  return PROBLEM_SLUGS[code] ?? code.toLowerCase().replaceAll('_', '-');
}

/**
 * `application/problem+json` (RFC 9457): `type` is `${typeBase}/<slug of the error code>`,
 * `title` the status text, `detail` the error's message, `instance` the request path (never the
 * query string). A 500 asks the caller to contact support with the request path and time; the
 * error id ties it to the log line with the real error.
 */
export function problemErrorFormat(
  typeBase: string,
): (err: HttpError, req: Pick<Request, 'path'>) => ErrorResponse {
  const base = typeBase.replace(/\/+$/, '');
  return (err, req) => {
    const instance = req.path;
    const detail =
      err instanceof InternalError
        ? `Unexpected error. Please contact support with the request path ${instance} and the time ${new Date().toISOString()} (error id ${err.errorId}).`
        : err.message;
    return {
      status: err.status,
      contentType: 'application/problem+json; charset=utf-8',
      body: {
        type: `${base}/${problemSlug(err.code)}`,
        title: STATUS_CODES[err.status] ?? 'Error',
        status: err.status,
        detail,
        instance,
      },
    };
  };
}

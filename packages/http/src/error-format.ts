import type { Request } from 'express';
import { type HttpError, InternalError } from './errors.js';

/** What an interface's error format makes of one error. */
export interface ErrorResponse {
  status: number;
  /** A string or Buffer is sent as is; anything else is sent as JSON. */
  body: unknown;
  /** Defaults to application/json for JSON bodies and text/plain for strings. */
  contentType?: string;
  /** Added to the error's own headers (WWW-Authenticate, Retry-After, Allow). */
  headers?: Record<string, string>;
}

/**
 * Renders an error in an interface's own format (specification part 7): `{code, message, details}`,
 * `application/problem+json`, `{status, message}`, `request=false&error=...`. Every error a service
 * answers with goes through its one ErrorFormat.
 */
export type ErrorFormat = (err: HttpError, req: Request) => ErrorResponse;

/** `{ code, message, details? }`: the reply-path, RCS and batch error body; the default format. */
export const jsonErrorFormat: ErrorFormat = (err) => ({
  status: err.status,
  body: {
    code: err.code,
    message: err.message,
    ...(err.details.length > 0 ? { details: err.details } : {}),
    ...(err instanceof InternalError && err.debugStack ? { stack: err.debugStack } : {}),
  },
});

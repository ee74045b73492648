import { STATUS_CODES } from 'node:http';
import type { ErrorResponse } from './error-format.js';
import type { HttpError } from './errors.js';

/**
 * Statuses the legacy reply-path interface does not list (spec 7.3), answered as the row that
 * says the same thing to its clients: a request refused for its form (too large, wrong media type,
 * nothing acceptable) is an invalid parameter (400), a refusal of the account is a 401 (rule 5.3),
 * an upstream that failed or was silent is "temporary overload" (503), a missing handler an
 * application error (500). 404, 405 and 429 are kept: HTTP's own, and the one a client can act on.
 */
const FOLDED: Readonly<Record<number, number>> = {
  403: 401,
  406: 400,
  413: 400,
  415: 400,
  501: 500,
  502: 503,
  504: 503,
};

export interface StatusLineFormatOptions {
  /** WWW-Authenticate of a 401 whose error carries none (a folded 403), e.g. 'Basic realm="x"'. */
  challenge?: string;
  /** Added to every error answer (e.g. the Deprecation and Link headers of the interface). */
  headers?: Record<string, string>;
}

/** '400 Bad Request'. */
export function statusLine(status: number): string {
  return `${status} ${STATUS_CODES[status] ?? 'Error'}`;
}

/**
 * `{ status, message }` where `status` is the status line (legacy reply-path, spec 7.3), with the
 * statuses outside the interface's table folded into its rows (FOLDED).
 */
export function statusLineErrorFormat(
  options: StatusLineFormatOptions = {},
): (err: HttpError) => ErrorResponse {
  return (err) => {
    const status = FOLDED[err.status] ?? err.status;
    const headers: Record<string, string> = { ...options.headers };
    if (status === 401 && options.challenge && !err.headers['WWW-Authenticate']) {
      headers['WWW-Authenticate'] = options.challenge;
    }
    return { status, body: { status: statusLine(status), message: err.message }, headers };
  };
}

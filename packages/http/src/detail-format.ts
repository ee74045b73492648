import type { ErrorFormat } from './error-format.js';
import type { ErrorDetail } from './errors.js';

/**
 * Statuses of the `detail` format that differ from the vocabulary's: a request that breaks the
 * interface's rules, malformed JSON included, is 422, as in FastAPI, where this shape comes from.
 */
const STATUS_BY_CODE: Record<string, number> = {
  VALIDATION_ERROR: 422,
  MALFORMED_REQUEST: 422,
};

/** Rule names for errors about the request as a whole (their `type`). */
const TYPE_BY_CODE: Record<string, string> = {
  MALFORMED_REQUEST: 'json_invalid',
};

const BODY_CODES = new Set(['MALFORMED_REQUEST', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE']);

/**
 * `{detail: [{loc, msg, type}]}` (text-to-voice, spec 7.5 rule 4; FastAPI's shape): one entry per
 * problem; an error without field details is one entry with `loc` [] (["body"] for a body that
 * cannot be read) and `type` its code in lower case (`unauthorized`, `not_found`, ...).
 */
export const detailErrorFormat: ErrorFormat = (err) => {
  const whole: ErrorDetail = {
    loc: BODY_CODES.has(err.code) ? ['body'] : [],
    msg: err.message,
    type: TYPE_BY_CODE[err.code] ?? err.code.toLowerCase(),
  };
  return {
    status: STATUS_BY_CODE[err.code] ?? err.status,
    body: { detail: err.details.length > 0 ? err.details : [whole] },
  };
};

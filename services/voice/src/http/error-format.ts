import type { ErrorDetail, ErrorFormat, HttpError } from '@msg/http';
import {
  LEGACY_CONTENT_TYPE,
  LEGACY_HEADERS,
  legacyFailure,
  SENDTTS_PATH,
} from '../legacy/legacy-answer.js';

/**
 * Statuses of spec 7.5 that differ from the kit's: a request breaking 2.6's rules, malformed JSON
 * included, is 422 (FastAPI's convention, which the `detail` array of rule 4 comes from; rule 1
 * answers an unregistered sender 422 too).
 */
const STATUS_BY_CODE: Record<string, number> = {
  VALIDATION_ERROR: 422,
  MALFORMED_REQUEST: 422,
};

/** Rule names for errors that concern the request as a whole (their `type`). */
const TYPE_BY_CODE: Record<string, string> = {
  MALFORMED_REQUEST: 'json_invalid',
};

const BODY_CODES = new Set(['MALFORMED_REQUEST', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE']);

/**
 * The text-to-voice REST error body (spec 7.5 rule 4): `{detail: [{loc, msg, type}]}`, one entry
 * per problem; an error without field details is one entry with `loc` [] (["body"] for a body
 * that cannot be read) and `type` its code in lower case.
 */
function restError(err: HttpError) {
  const whole: ErrorDetail = {
    loc: BODY_CODES.has(err.code) ? ['body'] : [],
    msg: err.message,
    type: TYPE_BY_CODE[err.code] ?? err.code.toLowerCase(),
  };
  return {
    status: STATUS_BY_CODE[err.code] ?? err.status,
    body: { detail: err.details.length > 0 ? err.details : [whole] },
  };
}

/**
 * The simple HTTP interface's refusal of malformed parameters (spec 7.5 rule 3): 400 with
 * `request=false&error=...` naming the parameter. The operation answers its own refusals
 * (200 request=false); what reaches this format is the document's rules (unknown parameters,
 * bad encodings) and unexpected errors.
 */
function legacyError(err: HttpError) {
  const first = err.details[0];
  const error = first ? `${first.loc.at(-1) ?? 'request'}: ${first.msg}` : err.message;
  return {
    status: err.status === 422 ? 400 : err.status,
    body: legacyFailure(error),
    contentType: LEGACY_CONTENT_TYPE,
    headers: LEGACY_HEADERS,
  };
}

/** One format for the service: `detail` for REST, form text for /txt2voice/v1/sendtts. */
export const voiceErrorFormat: ErrorFormat = (err, req) =>
  req.path === SENDTTS_PATH ? legacyError(err) : restError(err);

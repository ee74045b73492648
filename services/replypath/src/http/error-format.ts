import { type ErrorDetail, type ErrorFormat, type HttpError, jsonErrorFormat } from '@msg/http';

/**
 * Refusals of the request's bytes that the kit answers with their own status (413 too large, 415
 * not JSON or a bad charset, 400 MALFORMED_REQUEST not parseable): 7.2 lists none of 413 and 415
 * and names every malformed request a 400 VALIDATION_ERROR, so they become that, with a rule.
 */
const REQUEST_BYTES_RULES: Record<string, string> = {
  PAYLOAD_TOO_LARGE: 'maxSize',
  UNSUPPORTED_MEDIA_TYPE: 'mediaType',
  MALFORMED_REQUEST: 'malformed',
};

function asValidationError(err: HttpError): { status: number; code: string; detail?: ErrorDetail } {
  const rule = REQUEST_BYTES_RULES[err.code];
  if (rule)
    return {
      status: 400,
      code: 'VALIDATION_ERROR',
      detail: { loc: ['body'], msg: err.message, type: rule },
    };
  return { status: err.status, code: err.code, ...(err.details[0] && { detail: err.details[0] }) };
}

/**
 * The current reply-path interface's error body (spec 7.2): `{code, message, details?}` where
 * `details` is ONE object `{loc, msg, type}` — the first problem; `message` already lists them
 * all. Built on @msg/http's jsonErrorFormat (same codes, headers and stack rule), only the shape
 * of `details` and the statuses of request-byte refusals differ.
 */
export const replypathErrorFormat: ErrorFormat = (err, req) => {
  const rendered = jsonErrorFormat(err, req);
  const { status, code, detail } = asValidationError(err);
  const { details: _list, ...rest } = rendered.body as Record<string, unknown>;
  return {
    ...rendered,
    status,
    body: { ...rest, code, ...(detail && { details: detail }) },
  };
};

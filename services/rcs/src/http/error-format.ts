import { type ErrorFormat, type HttpError, jsonErrorFormat } from '@msg/http';

/** 7.4: the validation code and message are fixed; what broke is in details.errors. */
export const VALIDATION_MESSAGE = 'Request validation failed';

/**
 * Refusals of the request's bytes the kit answers with their own status (413 too large, 415 not
 * JSON, 400 MALFORMED_REQUEST not parseable): 7.4 lists neither 413 nor 415 and calls every
 * invalid format a 400 validation error, so they become that, with a rule naming why.
 */
const REQUEST_BYTES_RULES: Record<string, string> = {
  PAYLOAD_TOO_LARGE: 'maxSize',
  UNSUPPORTED_MEDIA_TYPE: 'mediaType',
  MALFORMED_REQUEST: 'malformed',
};

function asValidation(err: HttpError): HttpError['details'] | undefined {
  if (err.code === 'VALIDATION_ERROR') return err.details;
  const rule = REQUEST_BYTES_RULES[err.code];
  return rule ? [{ loc: ['body'], msg: err.message, type: rule }] : undefined;
}

/**
 * The RCS error body (spec 7.4): `{code, message, details}` with `details` an object — for
 * validation `{errors: [{loc, msg, type}]}` under code VALIDATION_ERROR and message "Request
 * validation failed", else `{}`. Built on @msg/http's jsonErrorFormat (same codes, headers such
 * as Retry-After, and stack rule); only the shape of `details` and the byte refusals differ.
 */
export const rcsErrorFormat: ErrorFormat = (err, req) => {
  const rendered = jsonErrorFormat(err, req);
  const { details: _list, ...rest } = rendered.body as Record<string, unknown>;
  const errors = asValidation(err);
  if (errors) {
    return {
      ...rendered,
      status: 400,
      body: { ...rest, code: 'VALIDATION_ERROR', message: VALIDATION_MESSAGE, details: { errors } },
    };
  }
  // Other refusals naming fields (400 RECIPIENT_UNSUBSCRIBED, the Idempotency-Key's 409
  // IDEMPOTENCY_KEY_IN_USE and 422 IDEMPOTENCY_KEY_REUSED) keep them in the same place.
  const details = err.details.length > 0 ? { errors: err.details } : {};
  return { ...rendered, body: { ...rest, details } };
};

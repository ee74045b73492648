import { detailErrorFormat, type ErrorFormat, type HttpError } from '@msg/http';
import {
  LEGACY_CONTENT_TYPE,
  LEGACY_HEADERS,
  legacyFailure,
  SENDTTS_PATH,
} from '../legacy/legacy-answer.js';

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

/**
 * One format for the service: REST errors are `{detail: [{loc, msg, type}]}` with 422 for broken
 * rules (@msg/http detailErrorFormat, spec 7.5 rule 4); /txt2voice/v1/sendtts answers form text.
 */
export const voiceErrorFormat: ErrorFormat = (err, req) =>
  req.path === SENDTTS_PATH ? legacyError(err) : detailErrorFormat(err, req);

import { detailErrorFormat, type ErrorFormat, formTextErrorFormat } from '@msg/http';
import { LEGACY_HEADERS, SENDTTS_PATH } from '../legacy/legacy-answer.js';

/**
 * One format for the service: REST errors are `{detail: [{loc, msg, type}]}` with 422 for broken
 * rules (@msg/http detailErrorFormat, spec 7.5 rule 4); /txt2voice/v1/sendtts answers form text
 * `request=false&error=...`, 400 for malformed parameters (spec 7.5 rule 3), with its
 * deprecation headers. The legacy operation answers its own refusals (200 request=false); what
 * reaches this format there is the document's rules (unknown parameters) and unexpected errors.
 */
export const voiceErrorFormat: ErrorFormat = (err, req) => {
  // Its variants too ('/sendtts/', a NUL appended): refused in the operation's own format.
  if (!req.path.startsWith(SENDTTS_PATH)) return detailErrorFormat(err, req);
  const rendered = formTextErrorFormat(err, req);
  return { ...rendered, headers: { ...rendered.headers, ...LEGACY_HEADERS } };
};

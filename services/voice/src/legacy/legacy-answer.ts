import { deprecationHeaders, VOICE_LEGACY_DEPRECATION } from '@msg/contracts';
import { FORM_CONTENT_TYPE, formFailure, formValue } from '@msg/http';

/** Every answer of the simple HTTP interface carries these (RFC 9745 Deprecation, Link). */
export const LEGACY_HEADERS = deprecationHeaders(VOICE_LEGACY_DEPRECATION);

export const LEGACY_CONTENT_TYPE = FORM_CONTENT_TYPE;

/** The legacy path (its errors are rendered as form text, not as `detail`). */
export const SENDTTS_PATH = '/txt2voice/v1/sendtts';

export const legacySuccess = (transactionId: string) =>
  `request=true&TransactionId=${formValue(transactionId)}`;

/** `request=false&error=...` (spec 2.6), the message readable raw and form-decoded. */
export const legacyFailure = formFailure;

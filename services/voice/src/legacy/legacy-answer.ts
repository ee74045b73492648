import { deprecationHeaders, VOICE_LEGACY_DEPRECATION } from '@msg/contracts';

/** Every answer of the simple HTTP interface carries these (RFC 9745 Deprecation, Link). */
export const LEGACY_HEADERS = deprecationHeaders(VOICE_LEGACY_DEPRECATION);

export const LEGACY_CONTENT_TYPE = 'application/x-www-form-urlencoded';

/** The legacy path (its errors are rendered as form text, not as `detail`). */
export const SENDTTS_PATH = '/txt2voice/v1/sendtts';

/**
 * A form value that reads the same raw and form-decoded: only the characters that would change
 * its meaning (`%`, `&`, `=`, `+`, line breaks) are percent-encoded, so `Unsupported language: XX`
 * is sent exactly so (spec 7.5 rule 3) and a form parser still gets it back intact.
 */
function formValue(value: string): string {
  return value.replace(/[%&=+\r\n]/g, (c) => encodeURIComponent(c));
}

export const legacySuccess = (transactionId: string) =>
  `request=true&TransactionId=${formValue(transactionId)}`;

export const legacyFailure = (error: string) => `request=false&error=${formValue(error)}`;

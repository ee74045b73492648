import type { ErrorFormat } from './error-format.js';

export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';

/**
 * A form value that reads the same raw and form-decoded: only the characters that would change
 * its meaning (`%`, `&`, `=`, `+`, line breaks) are percent-encoded, so a message such as
 * `Unsupported language: XX` goes on the wire exactly so and a form parser still gets it back.
 */
export function formValue(value: string): string {
  return value.replace(/[%&=+\r\n]/g, (c) => encodeURIComponent(c));
}

/** `request=false&error=<message>`: the text-to-voice simple HTTP interface's refusal (spec 2.6). */
export function formFailure(error: string): string {
  return `request=false&error=${formValue(error)}`;
}

/**
 * Errors as the text-to-voice simple HTTP interface answers them (spec 7.5 rule 3): form text
 * naming the (first) parameter and rule; a broken rule is 400 (malformed parameters), every
 * other error keeps its status.
 */
export const formTextErrorFormat: ErrorFormat = (err) => {
  const first = err.details[0];
  const error = first ? `${first.loc.at(-1) ?? 'request'}: ${first.msg}` : err.message;
  return {
    status: err.status === 422 || err.code === 'VALIDATION_ERROR' ? 400 : err.status,
    body: formFailure(error),
    contentType: FORM_CONTENT_TYPE,
  };
};

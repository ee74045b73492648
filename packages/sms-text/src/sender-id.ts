/**
 * Sender id rules of the batch interface (spec 2.2): every sender id is exactly one of
 * international (+ and E.164 digits), shortcode (digits only) or alphanumeric (anything else
 * made of the allowed characters). The first character and the digit-only test decide which
 * type's rules apply, so a broken id is reported against the rule of the type it was meant as.
 */

import { isStrictE164 } from '@msg/phone/e164';

export type SenderIdType = 'international' | 'alphanumeric' | 'shortcode';

export type SenderIdProblem =
  | 'empty'
  | 'international_not_e164'
  | 'shortcode_too_short'
  | 'shortcode_too_long'
  | 'alphanumeric_characters'
  | 'alphanumeric_too_long'
  | 'alphanumeric_space_at_edge';

export type SenderIdCheck =
  | { ok: true; type: SenderIdType }
  | { ok: false; reason: SenderIdProblem; message: string };

const SHORTCODE_DIGITS = { min: 3, max: 11 };
const ALPHANUMERIC_MAX = 11;
const ALPHANUMERIC_CHAR = /[A-Za-z0-9åäöÅÄÖæøÆØ ._&-]/;

export function validateSenderId(senderId: string): SenderIdCheck {
  if (senderId === '') return fail('empty', 'the sender id is empty');

  if (senderId.startsWith('+')) {
    // The platform's one E.164 rule (@msg/phone/e164, which loads no number metadata).
    return isStrictE164(senderId)
      ? { ok: true, type: 'international' }
      : fail(
          'international_not_e164',
          'an international sender id is + and 7 to 15 digits, the first not 0',
        );
  }

  if (/^\d+$/.test(senderId)) {
    const { min, max } = SHORTCODE_DIGITS;
    if (senderId.length < min)
      return fail('shortcode_too_short', `a shortcode has ${min} to ${max} digits`);
    if (senderId.length > max)
      return fail('shortcode_too_long', `a shortcode has ${min} to ${max} digits`);
    return { ok: true, type: 'shortcode' };
  }

  const characters = [...senderId];
  const forbidden = characters.find((char) => !ALPHANUMERIC_CHAR.test(char));
  if (forbidden !== undefined) {
    return fail(
      'alphanumeric_characters',
      `${JSON.stringify(forbidden)} is not allowed; an alphanumeric sender id uses A-Z, a-z, 0-9, å ä ö Å Ä Ö æ ø Æ Ø, space, dot, underscore, & and -`,
    );
  }
  if (characters.length > ALPHANUMERIC_MAX) {
    return fail(
      'alphanumeric_too_long',
      `an alphanumeric sender id has at most ${ALPHANUMERIC_MAX} characters`,
    );
  }
  if (senderId.startsWith(' ') || senderId.endsWith(' ')) {
    return fail(
      'alphanumeric_space_at_edge',
      'an alphanumeric sender id may not start or end with a space',
    );
  }
  return { ok: true, type: 'alphanumeric' };
}

function fail(reason: SenderIdProblem, message: string): SenderIdCheck {
  return { ok: false, reason, message };
}

import { describe, expect, it } from 'vitest';
import { validateSenderId } from './sender-id.js';

describe('validateSenderId: international', () => {
  it.each(['+46701234567', '+4915123456789', '+123456789012345'])(
    'when the sender id is %s, then it is international',
    (senderId) => {
      expect(validateSenderId(senderId)).toEqual({ ok: true, type: 'international' });
    },
  );

  it.each([
    ['+ with letters', '+46ABC'],
    ['+ with spaces', '+46 70 123 45 67'],
    ['+ and a leading 0', '+0701234567'],
    ['+ and 16 digits', '+1234567890123456'],
    ['+ alone', '+'],
    ['+ and 6 digits (short of the E.164 rule)', '+467012'],
    ['+ with a dash', '+46-701234567'],
  ])('when the sender id is %s, then it is refused as not E.164', (_label, senderId) => {
    expect(validateSenderId(senderId)).toMatchObject({
      ok: false,
      reason: 'international_not_e164',
    });
  });
});

describe('validateSenderId: shortcode', () => {
  it.each(['123', '71234', '12345678901'])(
    'when the sender id is %s, then it is a shortcode',
    (senderId) => {
      expect(validateSenderId(senderId)).toEqual({ ok: true, type: 'shortcode' });
    },
  );

  it.each([
    ['1', 'shortcode_too_short'],
    ['12', 'shortcode_too_short'],
    ['123456789012', 'shortcode_too_long'],
    ['0046701234567', 'shortcode_too_long'],
  ])('when the sender id is %s, then it is refused as %s', (senderId, reason) => {
    expect(validateSenderId(senderId)).toMatchObject({
      ok: false,
      reason,
      message: 'a shortcode has 3 to 11 digits',
    });
  });
});

describe('validateSenderId: alphanumeric', () => {
  it.each([
    ['letters', 'Acme'],
    ['exactly 11 characters', 'ABCDEFGHIJK'],
    ['digits and a letter', '1234567890A'],
    ['a single letter', 'A'],
    ['Swedish letters', 'Malmö Åre'],
    ['every Scandinavian letter', 'åäöÅÄÖæøÆØ'],
    ['an inner space', 'Acme Bank'],
    ['dot, underscore, ampersand and hyphen', 'A.B_C&D-E'],
    ['digits with an inner space (a non-digit)', '123 456'],
  ])('when the sender id has %s, then it is alphanumeric', (_label, senderId) => {
    expect(validateSenderId(senderId)).toEqual({ ok: true, type: 'alphanumeric' });
  });

  it.each([
    ['12 characters', 'ABCDEFGHIJKL', 'alphanumeric_too_long'],
    ['a leading space', ' Acme', 'alphanumeric_space_at_edge'],
    ['a trailing space', 'Acme ', 'alphanumeric_space_at_edge'],
    ['only a space', ' ', 'alphanumeric_space_at_edge'],
    ['an exclamation mark', 'Acme!', 'alphanumeric_characters'],
    ['a slash', 'Acme/Bank', 'alphanumeric_characters'],
    ['a plus inside', 'A+B', 'alphanumeric_characters'],
    ['an at sign', 'me@acme', 'alphanumeric_characters'],
    ['an é (not a Scandinavian letter of the rule)', 'Café', 'alphanumeric_characters'],
    ['a ü', 'Müller', 'alphanumeric_characters'],
    ['a decomposed å', 'Ma\u030alen', 'alphanumeric_characters'],
    ['a tab', 'Acme\tBank', 'alphanumeric_characters'],
    ['an emoji', 'Acme😀', 'alphanumeric_characters'],
  ])('when the sender id has %s, then it is refused as %s', (_label, senderId, reason) => {
    expect(validateSenderId(senderId)).toMatchObject({ ok: false, reason });
  });

  it('when a character is forbidden, then the message names it', () => {
    expect(validateSenderId('Acme!')).toMatchObject({
      message: expect.stringMatching(/^"!" is not allowed/),
    });
  });
});

describe('validateSenderId: empty', () => {
  it('when the sender id is empty, then it is refused as empty', () => {
    expect(validateSenderId('')).toEqual({
      ok: false,
      reason: 'empty',
      message: 'the sender id is empty',
    });
  });
});

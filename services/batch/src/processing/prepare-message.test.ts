import { describe, expect, it } from 'vitest';
import { prepareMessage } from './prepare-message.js';

describe('prepareMessage', () => {
  it('when the recipient is good, then the number is E.164 and the text rendered and counted', () => {
    expect(
      prepareMessage('Hi {{name}}, {{n}} left', {
        phoneNumber: '0046 70-123 45 67',
        fields: { name: 'Ann', n: 3 },
      }),
    ).toEqual({
      ok: true,
      to: '+46701234567',
      text: 'Hi Ann, 3 left',
      encoding: 'GSM-7',
      parts: 1,
    });
  });

  it.each([
    ['letters', 'abc'],
    ['a national number', '0701234567'],
    ['too few digits', '+4612'],
    ['an unassigned country code', '+999123456789'],
  ])('when the number has %s, then it fails as invalid_phone_number', (_case, phoneNumber) => {
    expect(prepareMessage('Hi', { phoneNumber, fields: null })).toMatchObject({
      ok: false,
      error: 'invalid_phone_number',
      to: phoneNumber,
    });
  });

  it('when a placeholder has no value, then it fails naming the first missing field', () => {
    expect(
      prepareMessage('{{a}} {{b}} {{c}}', { phoneNumber: '+46701234567', fields: { a: 'x' } }),
    ).toEqual({ ok: false, to: '+46701234567', text: null, error: 'missing_field:b' });
  });

  it('when the fields are not an object, then every placeholder is missing', () => {
    expect(prepareMessage('{{a}}', { phoneNumber: '+46701234567', fields: ['x'] })).toMatchObject({
      ok: false,
      error: 'missing_field:a',
    });
  });

  it.each([
    ['GSM-7', 'a', 1530, 1531],
    ['UCS-2', 'ж', 670, 671],
  ])(
    'when a %s text needs more than 10 parts, then it fails as too_long',
    (encoding, char, fits, tooMany) => {
      const ok = prepareMessage('{{t}}', {
        phoneNumber: '+46701234567',
        fields: { t: char.repeat(fits) },
      });
      expect(ok).toMatchObject({ ok: true, encoding, parts: 10 });
      const long = prepareMessage('{{t}}', {
        phoneNumber: '+46701234567',
        fields: { t: char.repeat(tooMany) },
      });
      expect(long).toEqual({
        ok: false,
        to: '+46701234567',
        text: char.repeat(tooMany),
        error: 'too_long',
      });
    },
  );

  it('when the rendered text is empty, then it fails as empty_message', () => {
    expect(
      prepareMessage('{{t}}', { phoneNumber: '+46701234567', fields: { t: '' } }),
    ).toMatchObject({ ok: false, error: 'empty_message' });
  });
});

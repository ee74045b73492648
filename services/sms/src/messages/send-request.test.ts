import { ValidationError } from '@msg/http';
import { protectedNames, type SenderRules } from '@msg/sms-text';
import { describe, expect, it } from 'vitest';
import { checkSendRequest } from './send-request.js';

const valid = { to: '0701234567', message: 'Hej', from: 'Acme' };
/** An account without registered sender ids; BankID is protected. */
const open: SenderRules = { registered: [], protectedNames: protectedNames(['BankID']) };

function problems(body: typeof valid & { callback_url?: string }, senders = open) {
  try {
    checkSendRequest(body, senders);
    return [];
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return error.details.map((d) => `${d.loc.join('.')}:${d.type}`);
  }
}

describe('checkSendRequest', () => {
  it('when every rule holds, then the number is E.164 and encoding and parts are counted', () => {
    expect(checkSendRequest({ ...valid, message: '€'.repeat(81) }, open)).toEqual({
      to: '+46701234567',
      from: 'Acme',
      text: '€'.repeat(81),
      encoding: 'GSM-7',
      parts: 2,
    });
  });

  it('when a callback_url is given, then it is kept', () => {
    expect(
      checkSendRequest({ ...valid, callback_url: 'https://x.example/cb' }, open).callbackUrl,
    ).toBe('https://x.example/cb');
  });

  it('when the extension characters push a GSM-7 text past 10 parts, then message is refused', () => {
    // 766 × '€' is 1532 septets although only 766 characters.
    expect(problems({ ...valid, message: '€'.repeat(766) })).toEqual([
      'body.message:too_many_parts',
    ]);
  });

  it('when every field breaks a rule, then each is reported in field order', () => {
    expect(problems({ to: 'abc', from: ' x', message: 'a'.repeat(1531) })).toEqual([
      'body.to:characters',
      'body.from:alphanumeric_space_at_edge',
      'body.message:too_many_parts',
    ]);
  });

  it('when the account may not use the sender, then from is refused with the rule, beside the other problems', () => {
    const acme: SenderRules = { ...open, registered: ['ACME'] };
    expect(problems({ ...valid, from: 'BANKID', to: 'abc' }, acme)).toEqual([
      'body.to:characters',
      'body.from:not_registered',
    ]);
    expect(problems({ ...valid, from: 'B4NK ID' })).toEqual(['body.from:protected']);
    expect(problems({ ...valid, from: '+46701234567' })).toEqual(['body.from:not_registered']);
    expect(problems({ ...valid, from: 'acme' }, acme)).toEqual([]);
  });
});

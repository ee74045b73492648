import { protectedNames } from '@msg/sms-text';
import { describe, expect, it } from 'vitest';
import { checkSms, msisdnRule } from './check-sms.js';

const fields = { to: ['body', 'to'], from: ['body', 'from'], text: ['body', 'text'] };
const rules = {
  fields,
  number: msisdnRule(),
  senders: { registered: ['ACME'], protectedNames: protectedNames(['BankID']) },
};

describe('checkSms', () => {
  it('when every rule holds, then the numbers are E.164 and the parts are counted', () => {
    expect(checkSms({ to: ['0701234567'], from: 'ACME', text: '€'.repeat(81) }, rules)).toEqual({
      ok: true,
      sms: {
        to: ['+46701234567'],
        from: 'ACME',
        text: '€'.repeat(81),
        encoding: 'GSM-7',
        parts: 2,
      },
    });
  });

  it('when every part breaks a rule, then each is named with its field and rule, recipients by place', () => {
    const check = checkSms({ to: ['+46701234567', 'abc'], from: 'BANKID', text: '' }, rules);
    expect(check.ok).toBe(false);
    expect(!check.ok && check.broken).toEqual([
      {
        loc: ['body', 'to'],
        type: 'characters',
        msg: expect.stringMatching(/^recipient 2 of 2: /),
      },
      { loc: ['body', 'from'], type: 'not_registered', msg: expect.any(String) },
      { loc: ['body', 'text'], type: 'empty', msg: 'must not be empty' },
    ]);
  });

  it('when the text needs 11 parts, then the message says how many it needs', () => {
    const check = checkSms({ to: ['+46701234567'], text: 'a'.repeat(1531) }, rules);
    expect(!check.ok && check.broken).toEqual([
      {
        loc: ['body', 'text'],
        type: 'too_many_parts',
        msg: 'at most 10 parts: this text needs 11 (1530 GSM-7 or 670 UCS-2 characters fit)',
      },
    ]);
  });

  it('when no sender is given, then no sender rule applies', () => {
    expect(checkSms({ to: ['+46701234567'], text: 'Hej' }, rules).ok).toBe(true);
  });
});

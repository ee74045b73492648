import { describe, expect, it } from 'vitest';
import { outcomeFor, parseRules, RuleSyntaxError } from './receipt-rules.js';
import { formatReceiptText, receiptDate } from './receipt-text.js';

describe('parseRules', () => {
  it('when given an ordered list, then it keeps the order', () => {
    expect(parseRules('+4670000=UNDELIV, *=DELIVRD')).toEqual([
      { prefix: '+4670000', outcome: 'UNDELIV' },
      { prefix: '*', outcome: 'DELIVRD' },
    ]);
  });

  it('when an outcome is unknown, then it names the entry', () => {
    expect(() => parseRules('+46=LOST')).toThrow(RuleSyntaxError);
    expect(() => parseRules('+46=LOST')).toThrow(/"\+46=LOST"/);
  });
});

describe('outcomeFor', () => {
  const rules = parseRules('+4670000=UNDELIV,4670001=EXPIRED,*=DELIVRD');

  it('when the destination has no plus sign, then the plus-prefixed rule still matches', () => {
    expect(outcomeFor(rules, '46700001234')).toBe('UNDELIV');
    expect(outcomeFor(rules, '+46700011234')).toBe('EXPIRED');
  });

  it('when no prefix matches, then the catch-all decides', () => {
    expect(outcomeFor(rules, '46709999999')).toBe('DELIVRD');
  });

  it('when there are no rules, then the message is delivered', () => {
    expect(outcomeFor([], '123')).toBe('DELIVRD');
  });
});

describe('formatReceiptText', () => {
  it('when a message is delivered, then the text has the standard fields', () => {
    const at = new Date('2026-11-22T09:05:00Z');
    expect(
      formatReceiptText({
        messageId: 'ab12',
        outcome: 'DELIVRD',
        submittedAt: at,
        doneAt: at,
        text: 'Hello world, this is longer than twenty',
      }),
    ).toBe(
      'id:ab12 sub:001 dlvrd:001 submit date:2611220905 done date:2611220905 stat:DELIVRD err:000 text:Hello world, this is',
    );
  });

  it('when formatting a date, then it is YYMMDDhhmm in UTC', () => {
    expect(receiptDate(new Date('2027-01-02T03:04:59Z'))).toBe('2701020304');
  });
});

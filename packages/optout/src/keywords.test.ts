import { describe, expect, it } from 'vitest';
import { accountKeywordProblem, classifyInbound, mayBeKeyword } from './keywords.js';

describe('classifyInbound', () => {
  it.each([
    ['STOP', 'stop', 'STOP'],
    ['stop', 'stop', 'STOP'],
    ['  Stop  ', 'stop', 'STOP'],
    ['Stop!', 'stop', 'STOP'],
    ['stop.', 'stop', 'STOP'],
    ['\tSTOPP\n', 'stop', 'STOPP'],
    ['avsluta', 'stop', 'AVSLUTA'],
    ['Avsluta!!', 'stop', 'AVSLUTA'],
    ['unsubscribe', 'stop', 'UNSUBSCRIBE'],
    ['START', 'start', 'START'],
    ['start', 'start', 'START'],
    ['Unstop', 'start', 'UNSTOP'],
    ['starta', 'start', 'STARTA'],
  ])('when the text is %j, then it is a %s word (%s)', (text, kind, keyword) => {
    expect(classifyInbound(text)).toEqual({ kind, keyword });
  });

  it.each([
    ['stop please'],
    ['please stop'],
    ['STOP 2'],
    ['stopped'],
    ['Hello'],
    [''],
    ['   '],
    ['!'],
    ['START NOW'],
    ['s t o p'],
    [`STOP${' '.repeat(200)}x`],
  ])('when the text is %j, then it is no keyword', (text) => {
    expect(classifyInbound(text)).toBeNull();
  });

  it('when the account has words of its own, then they stop too, whatever their case and spacing', () => {
    const words = ['nej tack', 'Sluta'];
    expect(classifyInbound('NEJ   TACK', words)).toEqual({ kind: 'stop', keyword: 'NEJ TACK' });
    expect(classifyInbound('sluta!', words)).toEqual({ kind: 'stop', keyword: 'SLUTA' });
    // Another account's words mean nothing here.
    expect(classifyInbound('sluta')).toBeNull();
  });

  it('when an account word is also a start word, then the start word wins', () => {
    expect(classifyInbound('start', ['START'])).toEqual({ kind: 'start', keyword: 'START' });
  });

  it('when a word has Swedish letters, then case still does not matter', () => {
    expect(classifyInbound('SLÄPP MIG', ['släpp mig'])).toEqual({
      kind: 'stop',
      keyword: 'SLÄPP MIG',
    });
  });
});

describe('accountKeywordProblem', () => {
  it.each([
    ['', 'empty'],
    ['  ?! ', 'empty'],
    ['x'.repeat(41), 'maxLength'],
    ['start', 'start_word'],
    ['Unstop!', 'start_word'],
  ])('when the word is %j, then it is refused as %s', (word, type) => {
    expect(accountKeywordProblem(word)?.type).toBe(type);
  });

  it('when the word is an ordinary phrase, then it is accepted', () => {
    expect(accountKeywordProblem('nej tack')).toBeNull();
    expect(accountKeywordProblem('x'.repeat(40))).toBeNull();
  });
});

describe('mayBeKeyword', () => {
  it("when the text is short, then it may be some account's word; when long or empty, then not", () => {
    expect(mayBeKeyword(' nej tack! ')).toBe(true);
    expect(mayBeKeyword('x'.repeat(40))).toBe(true);
    expect(mayBeKeyword('x'.repeat(41))).toBe(false);
    expect(mayBeKeyword(' ?! ')).toBe(false);
  });
});

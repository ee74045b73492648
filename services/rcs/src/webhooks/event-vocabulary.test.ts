import { describe, expect, it } from 'vitest';
import { matchesEvent, normalizeEvents, SECOND_VOCABULARY } from './event-vocabulary.js';

describe('enabled_events vocabularies (spec 4.5 rule 5)', () => {
  it('when the second vocabulary is given, then each maps onto its event type of 6.3', () => {
    expect(normalizeEvents(Object.keys(SECOND_VOCABULARY))).toEqual([
      'message.sent',
      'rcs.out.delivered',
      'rcs.out.read',
      'rcs.out.failed',
      'user.typing',
      'rcs.sub.subscribed',
      'rcs.sub.unsubscribed',
    ]);
  });

  it('when * is among the events, then only * is kept', () => {
    expect(normalizeEvents(['rcs.in.text', '*'])).toEqual(['*']);
  });

  it.each([
    [['*'], 'rcs.in.file', true],
    [['rcs.in.text'], 'rcs.in.text', true],
    [['rcs.in.text'], 'rcs.in.file', false],
    [['rcs.out.delivered'], 'test.rcs.out.delivered', true],
    [['rcs.out.read'], 'test.rcs.out.delivered', false],
    [[], 'rcs.in.text', false],
  ])('when subscribed to %j, then %s matches: %s', (enabled, eventType, expected) => {
    expect(matchesEvent(enabled, eventType)).toBe(expected);
  });
});

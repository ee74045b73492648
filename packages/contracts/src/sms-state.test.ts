import { describe, expect, it } from 'vitest';
import { isFinalSmsState, isSmsState, smsStateAdvances, statesAdvancedBy } from './sms-state.js';

describe('smsStateAdvances', () => {
  it.each([
    ['accepted', 'submitted', true],
    ['accepted', 'delivered', true],
    ['submitted', 'failed', true],
    ['submitted', 'expired', true],
    ['submitted', 'submitted', false],
    ['delivered', 'submitted', false],
    ['delivered', 'failed', false],
    ['failed', 'delivered', false],
  ] as const)('when %s gets a report of %s, then it advances: %s', (current, next, expected) => {
    expect(smsStateAdvances(current, next)).toBe(expected);
  });

  it('when the final states are asked for, then delivered, failed and expired are final', () => {
    expect(
      ['accepted', 'submitted', 'delivered', 'failed', 'expired'].map(
        (s) => isSmsState(s) && isFinalSmsState(s),
      ),
    ).toEqual([false, false, true, true, true]);
    expect(isSmsState('queued')).toBe(false);
  });
});

describe('statesAdvancedBy', () => {
  it('when a report arrives, then it moves a message forward only from the states before it', () => {
    expect(statesAdvancedBy('submitted')).toEqual(['accepted']);
    expect(statesAdvancedBy('delivered')).toEqual(['accepted', 'submitted']);
    expect(statesAdvancedBy('expired')).toEqual(['accepted', 'submitted']);
    expect(statesAdvancedBy('accepted')).toEqual([]);
  });
});

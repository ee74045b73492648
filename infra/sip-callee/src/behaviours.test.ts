import { describe, expect, it } from 'vitest';
import { numberKey, suffixBehaviour } from './behaviours.js';
import { CalleeState } from './callee-state.js';

describe('suffixBehaviour', () => {
  it.each([
    ['+46701234486', 'busy'],
    ['46701234603', 'reject'],
    ['46701234480', 'unavailable'],
    ['46701234000', 'ring'],
    ['46701234777', 'machine'],
    ['46701234860', 'busy-then-human'],
    ['+46 70 123 4860', 'busy-then-human'],
    ['46701234567', undefined],
    ['alice', undefined],
  ])('when %s is dialled, then its default is %s', (number, behaviour) => {
    expect(suffixBehaviour(number)).toBe(behaviour);
  });
});

describe('CalleeState', () => {
  it('when a rule is set, then it wins over the suffix; without one the default applies', () => {
    const state = new CalleeState('machine');
    state.setRule('+46701234486', 'human');
    expect(state.behaviourFor('46701234486')).toBe('human');
    expect(state.behaviourFor('46701234603')).toBe('reject');
    expect(state.behaviourFor('46701234567')).toBe('machine');
  });

  it('when calls are counted and cleared, then counting starts over', () => {
    const state = new CalleeState('human');
    expect([state.countCall('+4670'), state.countCall('4670')]).toEqual([0, 1]);
    state.clearCalls();
    expect(state.countCall('4670')).toBe(0);
  });

  it('keys phone numbers by digits and other users by lower case', () => {
    expect(numberKey('+46 (70) 123-45')).toBe('467012345');
    expect(numberKey('Alice')).toBe('alice');
  });
});

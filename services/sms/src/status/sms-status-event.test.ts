import { describe, expect, it } from 'vitest';
import { parseSmsStatus } from './sms-status-event.js';

const status = {
  messageId: 'm1',
  accountId: 'a1',
  source: 'sms',
  state: 'delivered',
  smscMessageIds: ['x'],
  parts: 1,
  at: '2026-11-22T10:00:00.000Z',
};

describe('parseSmsStatus', () => {
  it('when the payload is a status report, then it is read with its error', () => {
    const error = { description: 'expired', receiptStat: 'EXPIRED', extra: 1 };
    expect(parseSmsStatus({ ...status, error })).toEqual({
      ...status,
      error: { description: 'expired', receiptStat: 'EXPIRED' },
    });
  });

  it.each([
    ['not an object', 'x'],
    ['an accepted state', { ...status, state: 'accepted' }],
    ['an unknown state', { ...status, state: 'queued' }],
    ['an unknown source', { ...status, source: 'rcs' }],
    ['smsc ids that are not strings', { ...status, smscMessageIds: [1] }],
    ['a bad timestamp', { ...status, at: 'yesterday' }],
    ['no message id', { ...status, messageId: undefined }],
  ])('when the payload has %s, then it is refused', (_case, payload) => {
    expect(parseSmsStatus(payload)).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { parseStatusReport } from './sms-status.js';

const report = {
  messageId: 'm1',
  accountId: 'a1',
  source: 'batch',
  state: 'failed',
  smscMessageIds: [],
  parts: 1,
  at: '2026-11-22T10:00:00.000Z',
};

describe('parseStatusReport', () => {
  it('when the payload is a status report, then it is read with its error description', () => {
    expect(parseStatusReport({ ...report, error: { smppStatus: 11, description: 'bad' } })).toEqual(
      {
        messageId: 'm1',
        accountId: 'a1',
        source: 'batch',
        state: 'failed',
        at: '2026-11-22T10:00:00.000Z',
        errorDescription: 'bad',
      },
    );
  });

  it.each([
    ['not an object', 'x'],
    ['an accepted state', { ...report, state: 'accepted' }],
    ['a bad timestamp', { ...report, at: 'yesterday' }],
    ['no message id', { ...report, messageId: undefined }],
    ['no source', { ...report, source: 1 }],
  ])('when the payload has %s, then it is refused', (_case, payload) => {
    expect(parseStatusReport(payload)).toBeNull();
  });
});

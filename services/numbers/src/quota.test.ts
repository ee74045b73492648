import { describe, expect, it } from 'vitest';
import { parseHlrAnswer } from './live/hlr-client.js';
import { secondsUntilNextMonth } from './quota.js';

describe('secondsUntilNextMonth', () => {
  it('when it is the last minute of a month, then 60 seconds', () => {
    expect(secondsUntilNextMonth(new Date('2026-11-30T23:59:00.000Z'))).toBe(60);
  });

  it('when it is December, then until the first of January', () => {
    expect(secondsUntilNextMonth(new Date('2026-12-31T23:00:00.000Z'))).toBe(3600);
  });
});

describe('parseHlrAnswer', () => {
  it('when the body follows the provider protocol, then state, time and details are read', () => {
    expect(
      parseHlrAnswer({
        msisdn: '46701234567',
        status: 'barred',
        imsi: '240011234567890',
        mcc: '240',
        mnc: '01',
        network: 'Telia',
        checked_at: '2026-11-21T12:00:00.000Z',
      }),
    ).toEqual({
      state: 'barred',
      checkedAt: new Date('2026-11-21T12:00:00.000Z'),
      imsi: '240011234567890',
      mcc: '240',
      mnc: '01',
      network: 'Telia',
    });
  });

  it('when the status is unknown or the time is missing, then it is not an answer', () => {
    expect(parseHlrAnswer({ status: 'roaming', checked_at: '2026-11-21T12:00:00Z' })).toBeNull();
    expect(parseHlrAnswer({ status: 'reachable' })).toBeNull();
    expect(parseHlrAnswer('nope')).toBeNull();
  });
});

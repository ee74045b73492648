import { describe, expect, it } from 'vitest';
import { parseScheduleAt } from './schedule-at.js';

describe('parseScheduleAt', () => {
  it.each([
    ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000Z'],
    ['0050-06-15T12:30:00', '0050-06-15T12:30:00.000Z'],
    ['0099-12-31T23:59:59Z', '0099-12-31T23:59:59.000Z'],
    ['0001-01-01T01:30:00+01:00', '0001-01-01T00:30:00.000Z'],
    ['2026-12-01T10:00:00+01:00', '2026-12-01T09:00:00.000Z'],
  ])('when the year is written as in %s, then it is kept exactly (%s)', (text, iso) => {
    expect(parseScheduleAt(text)?.toISOString()).toBe(iso);
  });

  it.each(['0000-06-01T00:00:00Z', '0000-02-29T00:00:00Z', '0001-01-01T00:30:00+01:00'])(
    'when the moment %s falls before year 1, then it is refused',
    (text) => {
      expect(parseScheduleAt(text)).toBeUndefined();
    },
  );

  it('when the year is 1 to 99, then leap days follow that year, not 1900-1999', () => {
    // Year 4 is a leap year in the proleptic Gregorian calendar; 1900 is not.
    expect(parseScheduleAt('0004-02-29T00:00:00Z')?.toISOString()).toBe('0004-02-29T00:00:00.000Z');
    expect(parseScheduleAt('0001-02-29T00:00:00Z')).toBeUndefined();
  });
});

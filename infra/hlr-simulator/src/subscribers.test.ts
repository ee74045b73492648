import { describe, expect, it } from 'vitest';
import { answerFor, defaultStatus } from './subscribers.js';

describe('defaultStatus', () => {
  it.each([
    ['46701234567', 'reachable'],
    ['46761234567', 'reachable'],
    ['4740012345', 'reachable'],
    ['46701234991', 'absent'],
    ['46701234992', 'barred'],
    ['46701234993', 'unknown_subscriber'],
    ['46701234994', 'not_provisioned'],
    ['46701234995', 'unavailable'],
    ['4681234567', 'not_provisioned'],
  ])('when the number is %s, then the status is %s', (msisdn, status) => {
    expect(defaultStatus(msisdn)).toBe(status);
  });
});

describe('answerFor', () => {
  it.each([
    ['46701234567', '01', 'Telia'],
    ['46761234567', '02', 'Tre'],
    ['46791234567', '07', 'Tele2'],
    ['46731234567', '08', 'Telenor'],
  ])(
    'when %s is reachable, then the IMSI starts 240%s and the network is %s',
    (msisdn, mnc, name) => {
      const answer = answerFor(msisdn, 'reachable', new Date(0));
      expect(answer).toMatchObject({
        mcc: '240',
        mnc,
        network: name,
        checked_at: '1970-01-01T00:00:00.000Z',
      });
      expect(answer.imsi).toMatch(new RegExp(`^240${mnc}[0-9]{10}$`));
    },
  );
});

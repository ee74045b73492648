import { accountState } from '@msg/testing';
import { describe, expect, it } from 'vitest';
import { legacyRefusal, REFUSALS } from './legacy-access.js';

const allowed = accountState({ permissions: ['replypath'] });

describe('legacyRefusal (rule 5.3)', () => {
  it('when the account may send from this address, then no refusal', () => {
    expect(legacyRefusal(allowed, '198.51.100.7')).toBeNull();
  });

  it('when every reason holds at once, then inactive is named first', () => {
    const worst = accountState({
      status: 'disabled',
      permissions: [],
      billing: { mode: 'prepaid', fundsAvailable: false },
      ipAllowList: ['203.0.113.0/24'],
    });
    expect(legacyRefusal(worst, '198.51.100.7')).toBe(REFUSALS.inactive);
  });

  it('when an active account lacks the permission and funds, then no access comes before funds', () => {
    const account = accountState({ billing: { mode: 'prepaid', fundsAvailable: false } });
    expect(legacyRefusal(account, '198.51.100.7')).toBe(REFUSALS.noAccess);
  });

  it('when a prepaid account without funds calls from outside its list, then funds come before the address', () => {
    const account = accountState({
      permissions: ['replypath'],
      billing: { mode: 'prepaid', fundsAvailable: false },
      ipAllowList: ['203.0.113.0/24'],
    });
    expect(legacyRefusal(account, '198.51.100.7')).toBe(REFUSALS.noFunds);
  });

  it('when the IPv4 caller is outside the list, then the address is refused; as an IPv4-mapped IPv6 address too', () => {
    const account = accountState({ permissions: ['replypath'], ipAllowList: ['203.0.113.0/24'] });
    expect(legacyRefusal(account, '198.51.100.7')).toBe(REFUSALS.ip);
    expect(legacyRefusal(account, '::ffff:198.51.100.7')).toBe(REFUSALS.ip);
    expect(legacyRefusal(account, '::ffff:203.0.113.9')).toBeNull();
  });
});

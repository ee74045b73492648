import { describe, expect, it } from 'vitest';
import { makeAccount as accountState } from '../test/support/accounts.js';
import { accountStanding } from './account-standing.js';

describe('accountStanding', () => {
  it('when the account is active and postpaid, then ok', () => {
    expect(accountStanding(accountState())).toBe('ok');
    expect(
      accountStanding(accountState({ billing: { mode: 'postpaid', fundsAvailable: false } })),
    ).toBe('ok');
  });

  it('when the account is disabled, then inactive, whatever its funds', () => {
    expect(accountStanding(accountState({ status: 'disabled' }))).toBe('inactive');
    expect(
      accountStanding(
        accountState({ status: 'disabled', billing: { mode: 'prepaid', fundsAvailable: false } }),
      ),
    ).toBe('inactive');
  });

  it('when the account is prepaid with an empty balance, then no-funds', () => {
    expect(
      accountStanding(accountState({ billing: { mode: 'prepaid', fundsAvailable: false } })),
    ).toBe('no-funds');
  });

  it('when the account is prepaid with funds, then ok', () => {
    expect(
      accountStanding(accountState({ billing: { mode: 'prepaid', fundsAvailable: true } })),
    ).toBe('ok');
  });
});

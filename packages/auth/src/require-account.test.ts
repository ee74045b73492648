import { describe, expect, it } from 'vitest';
import { makeAccount } from '../test/support/accounts.js';
import { requireAccount } from './require-account.js';

describe('requireAccount', () => {
  it('when the request carries an account, then it is that account', () => {
    const account = makeAccount();
    expect(requireAccount({ account })).toBe(account);
  });

  it('when the request carries none, then 401 with the default message', () => {
    expect(() => requireAccount({})).toThrow(
      expect.objectContaining({ status: 401, message: 'Authentication required' }),
    );
  });

  it("when the request carries none and a message is given, then 401 with the interface's message", () => {
    expect(() => requireAccount({}, 'access token required')).toThrow(
      expect.objectContaining({ status: 401, message: 'access token required' }),
    );
  });
});

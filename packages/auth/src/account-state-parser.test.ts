import { describe, expect, it } from 'vitest';
import { makeAccount } from '../test/support/accounts.js';
import { parseAccountState } from './account-state-parser.js';

describe('parseAccountState', () => {
  it('when the payload is a complete account, then it comes back equal', () => {
    const account = makeAccount({
      apiKeys: [{ id: 'k', hash: 'scrypt$x', createdAt: '2025-01-01T00:00:00Z' }],
    });

    expect(parseAccountState(JSON.parse(JSON.stringify(account)))).toEqual(account);
  });

  it('when it lists permissions or scopes this build does not know, then those are dropped, not the account', () => {
    const parsed = parseAccountState({
      ...makeAccount(),
      permissions: ['sms', 'future_thing'],
      numberScopes: ['numbers:read', 'numbers:future'],
    });

    expect(parsed?.permissions).toEqual(['sms']);
    expect(parsed?.numberScopes).toEqual(['numbers:read']);
  });

  it('when the limits are missing (published before they existed), then they read as no limit', () => {
    const { batchMaxRecipients: _b, numbersMonthlyQuota: _q, ...older } = makeAccount();
    expect(parseAccountState(older)).toMatchObject({
      batchMaxRecipients: null,
      numbersMonthlyQuota: null,
    });
    expect(
      parseAccountState({ ...makeAccount(), batchMaxRecipients: 5000, numbersMonthlyQuota: 0 }),
    ).toMatchObject({ batchMaxRecipients: 5000, numbersMonthlyQuota: 0 });
  });

  it('when the stop words are missing (published before they existed), then they read as none', () => {
    const { optOutKeywords: _w, ...older } = makeAccount();
    expect(parseAccountState(older)?.optOutKeywords).toEqual([]);
    expect(parseAccountState({ ...older, optOutKeywords: ['SLUTA'] })?.optOutKeywords).toEqual([
      'SLUTA',
    ]);
  });

  it('when it was published before voice caller IDs existed, then it has none and no default', () => {
    const { voiceCallerIds: _c, voiceDefaultSender: _d, ...older } = makeAccount();
    expect(parseAccountState(older)).toMatchObject({
      voiceCallerIds: [],
      voiceDefaultSender: null,
    });
  });

  it.each([
    ['not an object', 'account'],
    ['no id', { ...makeAccount(), id: '' }],
    ['unknown status', { ...makeAccount(), status: 'suspended' }],
    ['password hash not a string', { ...makeAccount(), passwordHash: 12 }],
    ['api key without hash', { ...makeAccount(), apiKeys: [{ id: 'k', createdAt: 'x' }] }],
    ['ip list not strings', { ...makeAccount(), ipAllowList: [1] }],
    ['version missing', { ...makeAccount(), version: undefined }],
    ['rate limit missing', { ...makeAccount(), rateLimit: null }],
    ['negative batch limit', { ...makeAccount(), batchMaxRecipients: -1 }],
    ['fractional quota', { ...makeAccount(), numbersMonthlyQuota: 1.5 }],
    [
      'bad callback method',
      { ...makeAccount(), callbacks: { ...makeAccount().callbacks, replyPathMethod: 'PUT' } },
    ],
  ])('when the payload has %s, then it is rejected', (_case, payload) => {
    expect(parseAccountState(payload)).toBeNull();
  });
});

import { randomUUID } from 'node:crypto';
import type { AccountState } from '@msg/contracts';
import type { AccountLookup } from '../../src/account-directory.js';
import type { ScryptParams } from '../../src/secret-hash.js';

/** Cheap scrypt for fixtures: the format and code path are the real ones, only the cost is lower. */
export const FAST_SCRYPT: ScryptParams = { N: 1024, r: 8, p: 1 };

export function makeAccount(overrides: Partial<AccountState> = {}): AccountState {
  return {
    id: randomUUID(),
    name: 'acme',
    status: 'active',
    passwordHash: null,
    apiKeys: [],
    permissions: ['sms', 'numbers'],
    numberScopes: ['numbers:read'],
    callbacks: {
      replyPathUrl: null,
      replyPathMethod: 'POST',
      deliveryReportUrl: null,
      voiceReportUrl: null,
    },
    rateLimit: { perSecond: 10, burst: 20 },
    smsThroughputPerSecond: 10,
    batchMaxRecipients: null,
    numbersMonthlyQuota: null,
    ipAllowList: [],
    senderIds: [],
    optOutKeywords: [],
    voiceCallerIds: [],
    voiceDefaultSender: null,
    version: 1,
    updatedAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/** A mutable stand-in for the directory: `put` replaces an account as a new accounts.v1 state would. */
export function createStaticDirectory(...accounts: AccountState[]) {
  const byId = new Map(accounts.map((account) => [account.id, account]));
  const lookup: AccountLookup = {
    byId: (id) => byId.get(id),
    byName: (name) =>
      [...byId.values()].find((account) => account.name.toLowerCase() === name.toLowerCase()),
  };
  return {
    ...lookup,
    put(account: AccountState) {
      byId.set(account.id, account);
    },
    remove(id: string) {
      byId.delete(id);
    },
  };
}

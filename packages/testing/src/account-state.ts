import { randomUUID } from 'node:crypto';
import type { AccountState } from '@msg/contracts';

let counter = 0;

/**
 * A complete, active AccountState as the admin service publishes it, with a unique id and name
 * and no permissions, secrets or limits beyond the defaults; override what the test is about.
 */
export function accountState(overrides: Partial<AccountState> = {}): AccountState {
  counter += 1;
  return {
    id: randomUUID(),
    name: `TestAcct${counter}${randomUUID().slice(0, 6)}`,
    status: 'active',
    passwordHash: null,
    apiKeys: [],
    permissions: [],
    numberScopes: [],
    callbacks: {
      replyPathUrl: null,
      replyPathMethod: 'POST',
      deliveryReportUrl: null,
      voiceReportUrl: null,
    },
    rateLimit: { perSecond: 1000, burst: 1000 },
    smsThroughputPerSecond: 100,
    batchMaxRecipients: null,
    numbersMonthlyQuota: null,
    ipAllowList: [],
    senderIds: [],
    optOutKeywords: [],
    voiceCallerIds: [],
    voiceDefaultSender: null,
    version: 1,
    updatedAt: new Date().toISOString(),
    ...overrides,
  };
}

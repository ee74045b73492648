import {
  type AccountState,
  type BillingMode,
  isNumberScope,
  isPermission,
  type NumberScope,
  type Permission,
} from '@msg/contracts';

/** An account row with its API keys, as the admin service reads it from its own tables. */
export interface AccountRecord {
  id: string;
  name: string;
  status: string;
  billingMode: string;
  balance: bigint;
  passwordHash: string | null;
  permissions: string[];
  numberScopes: string[];
  replyPathUrl: string | null;
  replyPathMethod: string;
  deliveryReportUrl: string | null;
  voiceReportUrl: string | null;
  rateLimitPerSecond: number;
  rateLimitBurst: number;
  smsThroughputPerSecond: number;
  batchMaxRecipients: number | null;
  numbersMonthlyQuota: number | null;
  ipAllowList: string[];
  senderIds: string[];
  optOutKeywords: string[];
  voiceCallerIds: string[];
  voiceDefaultSender: string | null;
  version: number;
  createdAt: Date;
  updatedAt: Date;
  apiKeys: { id: string; hash: string; prefix: string; createdAt: Date; revokedAt: Date | null }[];
}

/** The account as the operator API shows it: never a hash, never a secret. */
export interface AccountView {
  id: string;
  name: string;
  status: 'active' | 'disabled';
  /** `balance`: prepaid credits left, one per SMS part (kept while postpaid, unused then). */
  billing: { mode: BillingMode; balance: number };
  hasPassword: boolean;
  apiKeys: { id: string; prefix: string; createdAt: string }[];
  permissions: Permission[];
  numberScopes: NumberScope[];
  callbacks: AccountState['callbacks'];
  rateLimit: AccountState['rateLimit'];
  smsThroughputPerSecond: number;
  batchMaxRecipients: number | null;
  numbersMonthlyQuota: number | null;
  ipAllowList: string[];
  senderIds: string[];
  optOutKeywords: string[];
  voiceCallerIds: string[];
  voiceDefaultSender: string | null;
  version: number;
  createdAt: string;
  updatedAt: string;
}

// Columns hold only values the OpenAPI document admitted; unknown values fall back safely.
const status = (s: string): AccountState['status'] => (s === 'disabled' ? 'disabled' : 'active');
const method = (m: string): 'GET' | 'POST' => (m === 'GET' ? 'GET' : 'POST');
const billingMode = (m: string): BillingMode => (m === 'prepaid' ? 'prepaid' : 'postpaid');

function activeKeys(record: AccountRecord) {
  return record.apiKeys.filter((k) => k.revokedAt === null);
}

function common(record: AccountRecord) {
  return {
    id: record.id,
    name: record.name,
    status: status(record.status),
    permissions: record.permissions.filter(isPermission),
    numberScopes: record.numberScopes.filter(isNumberScope),
    callbacks: {
      replyPathUrl: record.replyPathUrl,
      replyPathMethod: method(record.replyPathMethod),
      deliveryReportUrl: record.deliveryReportUrl,
      voiceReportUrl: record.voiceReportUrl,
    },
    rateLimit: { perSecond: record.rateLimitPerSecond, burst: record.rateLimitBurst },
    smsThroughputPerSecond: record.smsThroughputPerSecond,
    batchMaxRecipients: record.batchMaxRecipients,
    numbersMonthlyQuota: record.numbersMonthlyQuota,
    ipAllowList: record.ipAllowList,
    senderIds: record.senderIds,
    optOutKeywords: record.optOutKeywords,
    voiceCallerIds: record.voiceCallerIds,
    voiceDefaultSender: record.voiceDefaultSender,
    version: record.version,
    updatedAt: record.updatedAt.toISOString(),
  };
}

/** The payload published on accounts.v1: what other services need to authenticate and authorise. */
export function toAccountState(record: AccountRecord): AccountState {
  return {
    ...common(record),
    billing: {
      mode: billingMode(record.billingMode),
      // Postpaid never runs dry; prepaid has funds while anything is left.
      fundsAvailable: billingMode(record.billingMode) === 'postpaid' || record.balance > 0n,
    },
    passwordHash: record.passwordHash,
    apiKeys: activeKeys(record).map((k) => ({
      id: k.id,
      hash: k.hash,
      createdAt: k.createdAt.toISOString(),
    })),
  };
}

export function toAccountView(record: AccountRecord): AccountView {
  return {
    ...common(record),
    billing: { mode: billingMode(record.billingMode), balance: Number(record.balance) },
    hasPassword: record.passwordHash !== null,
    apiKeys: activeKeys(record).map((k) => ({
      id: k.id,
      prefix: k.prefix,
      createdAt: k.createdAt.toISOString(),
    })),
    createdAt: record.createdAt.toISOString(),
  };
}

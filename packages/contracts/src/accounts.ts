/** Permissions an operator enables per account (specification, general rule 3). */
export const PERMISSIONS = [
  'sms',
  'batch_sms',
  'replypath',
  'rcs',
  'text_to_voice',
  'numbers',
  'lookup',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** Number intelligence view scopes (specification part 5, rule 2). */
export const NUMBER_SCOPES = [
  'numbers:read',
  'numbers:porting-history',
  'numbers:live-status',
] as const;
export type NumberScope = (typeof NUMBER_SCOPES)[number];

export interface AccountCallbacks {
  replyPathUrl: string | null;
  replyPathMethod: 'GET' | 'POST';
  deliveryReportUrl: string | null;
  voiceReportUrl: string | null;
}

export interface AccountApiKey {
  id: string;
  /** scrypt hash of the key; the key itself is shown once and never stored. */
  hash: string;
  createdAt: string;
}

/**
 * Payload of `account.state` events on the compacted accounts.v1 topic: the whole current state of
 * one account. Secrets appear only as scrypt hashes.
 */
export interface AccountState {
  id: string;
  name: string;
  status: 'active' | 'disabled';
  passwordHash: string | null;
  apiKeys: AccountApiKey[];
  permissions: Permission[];
  numberScopes: NumberScope[];
  callbacks: AccountCallbacks;
  rateLimit: { perSecond: number; burst: number };
  smsThroughputPerSecond: number;
  /** Most recipients one batch of this account may hold (spec 8.1, "per account"); null = the API's 1,000,000. */
  batchMaxRecipients: number | null;
  /** Number intelligence lookups allowed per calendar month (UTC); null = no quota (spec 8.6). */
  numbersMonthlyQuota: number | null;
  /** IP addresses or CIDR blocks; empty means any address. */
  ipAllowList: string[];
  senderIds: string[];
  version: number;
  updatedAt: string;
}

export const ACCOUNT_STATE_EVENT = 'account.state';

export function isPermission(value: string): value is Permission {
  return (PERMISSIONS as readonly string[]).includes(value);
}

export function isNumberScope(value: string): value is NumberScope {
  return (NUMBER_SCOPES as readonly string[]).includes(value);
}

import { z } from 'zod';

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

/**
 * How an account pays (rule 5.3). Postpaid sends without counting; prepaid spends credits, one per
 * SMS part, from a balance the admin service keeps (it is the only writer, so debits are exact).
 */
export const BILLING_MODES = ['postpaid', 'prepaid'] as const;
export type BillingMode = (typeof BILLING_MODES)[number];

export interface AccountBilling {
  mode: BillingMode;
  /**
   * Prepaid only: whether the balance is above zero. Republished when the balance crosses zero
   * (a debit empties it, a top-up refills it), not on every debit, so it can lag a moment behind
   * the balance; the admin service's debit is the authority on whether one message may be sent.
   */
  fundsAvailable: boolean;
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
  /** 'disabled' is the specification's "inactive account (contract terminated)" (rule 5.3). */
  status: 'active' | 'disabled';
  /** Absent in states published before billing existed: postpaid. */
  billing?: AccountBilling;
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
  /**
   * The account's own stop words, beside the platform's (STOP, STOPP, AVSLUTA, UNSUBSCRIBE): an
   * inbound SMS that is one of them opts its sender out of this account's messages (@msg/optout).
   * Absent means none (the schema always fills it in; fixtures may leave it out).
   */
  optOutKeywords?: string[];
  /**
   * Text-to-voice caller IDs (E.164) registered with the operator for this account (spec 2.6:
   * client caller IDs must be registered before use). Absent means none.
   */
  voiceCallerIds?: string[];
  /** The account's default voice caller ID (one of voiceCallerIds); absent or null: none. */
  voiceDefaultSender?: string | null;
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

const count = z.number().int().min(0);
/** A limit that is absent (published before it existed) or null reads as "no limit". */
const optionalLimit = count.nullish().transform((value) => value ?? null);
const urlOrNull = z
  .string()
  .nullish()
  .transform((value) => value ?? null);

/*
 * accounts.v1 arrives from the wire and authentication decisions rest on it, so every member is
 * checked. Unknown permissions and scopes are dropped rather than rejecting the account: an admin
 * service that learns a new permission before this service does must not lock every account out.
 */
export const accountStateSchema: z.ZodType<AccountState> = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  status: z.enum(['active', 'disabled']),
  billing: z
    .object({ mode: z.enum(BILLING_MODES), fundsAvailable: z.boolean() })
    .optional()
    .describe('Absent: postpaid (published before billing existed).'),
  passwordHash: z.string().nullable().describe('scrypt hash; null when password login is off.'),
  apiKeys: z.array(z.object({ id: z.string(), hash: z.string(), createdAt: z.string() })),
  permissions: z
    .array(z.string())
    .transform((values) => values.filter(isPermission))
    .describe(`Known values: ${PERMISSIONS.join(', ')}; unknown ones are ignored.`),
  numberScopes: z
    .array(z.string())
    .transform((values) => values.filter(isNumberScope))
    .describe(`Known values: ${NUMBER_SCOPES.join(', ')}; unknown ones are ignored.`),
  callbacks: z.object({
    replyPathUrl: urlOrNull,
    replyPathMethod: z.enum(['GET', 'POST']),
    deliveryReportUrl: urlOrNull,
    voiceReportUrl: urlOrNull,
  }),
  rateLimit: z.object({ perSecond: z.number(), burst: z.number() }),
  smsThroughputPerSecond: z.number(),
  batchMaxRecipients: optionalLimit,
  numbersMonthlyQuota: optionalLimit,
  ipAllowList: z.array(z.string()),
  senderIds: z.array(z.string()),
  optOutKeywords: z
    .array(z.string())
    .nullish()
    .transform((values) => values ?? [])
    .describe("The account's own stop words; absent (published before it existed) is none."),
  voiceCallerIds: z
    .array(z.string())
    .nullish()
    .transform((values) => values ?? [])
    .describe('Registered voice caller IDs (E.164); absent (published before it existed) is none.'),
  voiceDefaultSender: z
    .string()
    .nullish()
    .transform((value) => value ?? null)
    .describe("The account's default voice caller ID; absent or null: none."),
  version: z.number(),
  updatedAt: z.string(),
});

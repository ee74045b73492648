import {
  type AccountApiKey,
  type AccountCallbacks,
  type AccountState,
  isNumberScope,
  isPermission,
} from '@msg/contracts';

/*
 * accounts.v1 arrives from the wire, so its payload is checked field by field before any
 * authentication decision rests on it. Unknown permissions and scopes are dropped rather than
 * rejecting the account: an admin service that learns a new permission before this service does
 * must not lock every account out of it.
 */

type Fields = Record<string, unknown>;

function isRecord(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isString(value: unknown): value is string {
  return typeof value === 'string';
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function stringArray(value: unknown): string[] | null {
  return Array.isArray(value) && value.every(isString) ? [...value] : null;
}

function parseApiKeys(value: unknown): AccountApiKey[] | null {
  if (!Array.isArray(value)) return null;
  const keys: AccountApiKey[] = [];
  for (const item of value) {
    if (
      !isRecord(item) ||
      !isString(item.id) ||
      !isString(item.hash) ||
      !isString(item.createdAt)
    ) {
      return null;
    }
    keys.push({ id: item.id, hash: item.hash, createdAt: item.createdAt });
  }
  return keys;
}

function parseCallbacks(value: unknown): AccountCallbacks | null {
  if (!isRecord(value)) return null;
  const url = (field: unknown): string | null | undefined =>
    field === null || field === undefined ? null : isString(field) ? field : undefined;
  const replyPathUrl = url(value.replyPathUrl);
  const deliveryReportUrl = url(value.deliveryReportUrl);
  const voiceReportUrl = url(value.voiceReportUrl);
  const method = value.replyPathMethod;
  if (
    replyPathUrl === undefined ||
    deliveryReportUrl === undefined ||
    voiceReportUrl === undefined
  ) {
    return null;
  }
  if (method !== 'GET' && method !== 'POST') return null;
  return { replyPathUrl, replyPathMethod: method, deliveryReportUrl, voiceReportUrl };
}

/**
 * A non-negative integer limit or null (no limit). Missing is read as null: events published
 * before the field existed stay readable. Anything else is undefined (malformed).
 */
function optionalCount(value: unknown): number | null | undefined {
  if (value === undefined || value === null) return null;
  return isFiniteNumber(value) && Number.isInteger(value) && value >= 0 ? value : undefined;
}

/** A well-formed AccountState built from an untrusted payload, or null when it is not one. */
export function parseAccountState(value: unknown): AccountState | null {
  if (!isRecord(value)) return null;
  const { id, name, status, passwordHash, version, updatedAt, smsThroughputPerSecond, rateLimit } =
    value;
  if (!isString(id) || id === '' || !isString(name) || name === '') return null;
  if (status !== 'active' && status !== 'disabled') return null;
  if (passwordHash !== null && !isString(passwordHash)) return null;
  if (!isFiniteNumber(version) || !isString(updatedAt) || !isFiniteNumber(smsThroughputPerSecond)) {
    return null;
  }
  if (
    !isRecord(rateLimit) ||
    !isFiniteNumber(rateLimit.perSecond) ||
    !isFiniteNumber(rateLimit.burst)
  ) {
    return null;
  }
  const apiKeys = parseApiKeys(value.apiKeys);
  const callbacks = parseCallbacks(value.callbacks);
  const permissions = stringArray(value.permissions);
  const numberScopes = stringArray(value.numberScopes);
  const ipAllowList = stringArray(value.ipAllowList);
  const senderIds = stringArray(value.senderIds);
  const batchMaxRecipients = optionalCount(value.batchMaxRecipients);
  const numbersMonthlyQuota = optionalCount(value.numbersMonthlyQuota);
  if (batchMaxRecipients === undefined || numbersMonthlyQuota === undefined) return null;
  if (!apiKeys || !callbacks || !permissions || !numberScopes || !ipAllowList || !senderIds)
    return null;
  return {
    id,
    name,
    status,
    passwordHash,
    apiKeys,
    permissions: permissions.filter(isPermission),
    numberScopes: numberScopes.filter(isNumberScope),
    callbacks,
    rateLimit: { perSecond: rateLimit.perSecond, burst: rateLimit.burst },
    smsThroughputPerSecond,
    batchMaxRecipients,
    numbersMonthlyQuota,
    ipAllowList,
    senderIds,
    version,
    updatedAt,
  };
}

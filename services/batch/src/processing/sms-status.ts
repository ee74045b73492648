import type { SmsStatus } from '@msg/contracts';

/** What the batch service reads of an sms.status.v1 payload. */
export interface StatusReport {
  messageId: string;
  accountId: string;
  /** The owner of the message; only 'batch' concerns this service. */
  source: string;
  state: SmsStatus['state'];
  at: string;
  /** error.description of the report, when it has one. */
  errorDescription?: string;
}

const STATES: readonly SmsStatus['state'][] = ['submitted', 'delivered', 'failed', 'expired'];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads an sms.status.v1 payload, or null when it is not a status report. The topic is written by
 * another service and shared by every owner of messages, so nothing is assumed; members the batch
 * service does not use are not checked.
 */
export function parseStatusReport(payload: unknown): StatusReport | null {
  if (!isRecord(payload)) return null;
  const { messageId, accountId, source, state, at, error } = payload;
  if (typeof messageId !== 'string' || typeof accountId !== 'string') return null;
  if (typeof source !== 'string') return null;
  const known = STATES.find((s) => s === state);
  if (!known || typeof at !== 'string' || Number.isNaN(Date.parse(at))) return null;
  const description =
    isRecord(error) && typeof error.description === 'string' ? error.description : undefined;
  return {
    messageId,
    accountId,
    source,
    state: known,
    at,
    ...(description !== undefined && { errorDescription: description }),
  };
}

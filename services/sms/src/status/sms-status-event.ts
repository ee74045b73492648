import type { SmsSource, SmsStatus } from '@msg/contracts';
import { toSmsError } from '../messages/message-view.js';
import { isSmsState } from '../messages/status-order.js';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const SOURCES: readonly SmsSource[] = ['sms', 'batch', 'replypath', 'replypath-legacy'];

function isSmsSource(value: unknown): value is SmsSource {
  return SOURCES.some((source) => source === value);
}

/**
 * Reads an sms.status.v1 payload, or null when it is not one. The topic is shared by every owner
 * of messages and written by another service, so nothing about it is assumed.
 */
export function parseSmsStatus(payload: unknown): SmsStatus | null {
  if (!isRecord(payload)) return null;
  const { messageId, accountId, source, state, smscMessageIds, parts, at } = payload;
  if (typeof messageId !== 'string' || typeof accountId !== 'string') return null;
  if (!isSmsSource(source)) return null;
  if (!isSmsState(state) || state === 'accepted') return null;
  if (!Array.isArray(smscMessageIds) || !smscMessageIds.every((id) => typeof id === 'string')) {
    return null;
  }
  if (typeof parts !== 'number' || typeof at !== 'string' || Number.isNaN(Date.parse(at))) {
    return null;
  }
  const error = toSmsError(payload.error);
  return {
    messageId,
    accountId,
    source,
    state,
    smscMessageIds,
    parts,
    at,
    ...(error && { error }),
  };
}

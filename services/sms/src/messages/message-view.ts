import { isSmsState } from '@msg/contracts';
import type { components } from '@msg/contracts/sms';
import type { Message } from '../generated/prisma/client.js';

export type MessageView = components['schemas']['SmsMessage'];
export type SmsError = components['schemas']['SmsError'];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The stored error JSON back as the document's SmsError; anything else is dropped. */
export function toSmsError(value: unknown): SmsError | undefined {
  if (!isRecord(value) || typeof value.description !== 'string') return undefined;
  const { smppStatus, receiptStat, receiptError } = value;
  return {
    description: value.description,
    ...(typeof smppStatus === 'number' && Number.isInteger(smppStatus) && { smppStatus }),
    ...(typeof receiptStat === 'string' && { receiptStat }),
    ...(typeof receiptError === 'string' && { receiptError }),
  };
}

/** A stored message as GET /v1/sms/{messageId} answers it: optional fields absent, never null. */
export function toMessageView(record: Message): MessageView {
  const status = isSmsState(record.status) ? record.status : 'accepted';
  const error = toSmsError(record.error);
  return {
    messageId: record.id,
    status,
    to: record.recipient,
    from: record.sender,
    parts: record.parts,
    encoding: record.encoding === 'UCS-2' ? 'UCS-2' : 'GSM-7',
    smscMessageIds: record.smscMessageIds,
    createdAt: record.createdAt.toISOString(),
    ...(record.submittedAt && { submittedAt: record.submittedAt.toISOString() }),
    ...(record.completedAt && { completedAt: record.completedAt.toISOString() }),
    ...(error && { error }),
  };
}

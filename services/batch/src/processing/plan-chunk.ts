import { randomUUID } from 'node:crypto';
import type { SmsOutbound } from '@msg/contracts';
import type { BatchRow } from '../batches/batch-row.js';
import { prepareMessage } from './prepare-message.js';

/** A pending message of the chunk, as read from batch.message. */
export interface PendingMessage {
  seq: number;
  phone_number: string;
  fields: unknown;
}

/**
 * The new state of every message of a chunk as column arrays (one UPDATE ... FROM unnest), the
 * sms.outbound.v1 payloads of the messages to send and the batch counters to add.
 */
export interface ChunkPlan {
  columns: {
    seq: number[];
    status: string[];
    error: (string | null)[];
    text: (string | null)[];
    parts: (number | null)[];
    transactionId: string[];
    phoneNumber: string[];
    changeSeq: (number | null)[];
  };
  outbound: SmsOutbound[];
  submitted: number;
  failed: number;
  parts: number;
  /** The batch's last_change_seq after this chunk. */
  lastChangeSeq: number;
}

export interface ChunkOptions {
  /** Messages per second of the account; undefined when the account may no longer send. */
  throughputPerSecond: number | undefined;
}

/**
 * Decides what happens to each message of a chunk, in seq order. Messages to send become
 * 'queued' (decided later by their status report); failures, and every good message of a dry
 * run, are decided now and take the next change_seq numbers.
 */
export function planChunk(
  batch: BatchRow,
  messages: readonly PendingMessage[],
  { throughputPerSecond }: ChunkOptions,
): ChunkPlan {
  const columns: ChunkPlan['columns'] = {
    seq: [],
    status: [],
    error: [],
    text: [],
    parts: [],
    transactionId: [],
    phoneNumber: [],
    changeSeq: [],
  };
  const outbound: SmsOutbound[] = [];
  let changeSeq = Number(batch.last_change_seq);
  let submitted = 0;
  let failed = 0;
  let parts = 0;

  for (const message of messages) {
    const transactionId = randomUUID();
    const prepared =
      throughputPerSecond === undefined
        ? {
            ok: false as const,
            to: message.phone_number,
            text: null,
            error: 'account_not_allowed',
          }
        : prepareMessage(batch.message_template, {
            phoneNumber: message.phone_number,
            fields: message.fields,
          });
    columns.seq.push(message.seq);
    columns.transactionId.push(transactionId);
    columns.phoneNumber.push(prepared.to);
    columns.text.push(prepared.text);
    if (!prepared.ok) {
      columns.status.push('failed');
      columns.error.push(prepared.error);
      columns.parts.push(null);
      columns.changeSeq.push(++changeSeq);
      failed += 1;
      continue;
    }
    columns.error.push(null);
    columns.parts.push(prepared.parts);
    parts += prepared.parts;
    if (batch.dry_run) {
      columns.status.push('submitted');
      columns.changeSeq.push(++changeSeq);
      submitted += 1;
      continue;
    }
    columns.status.push('queued');
    columns.changeSeq.push(null);
    outbound.push({
      messageId: transactionId,
      accountId: batch.account_id,
      source: 'batch',
      from: batch.sender_id,
      to: prepared.to,
      text: prepared.text,
      encoding: prepared.encoding,
      parts: prepared.parts,
      deliveryReport: batch.delivery_report,
      ...(batch.validity_minutes !== null && { validityMinutes: batch.validity_minutes }),
      ...(throughputPerSecond !== undefined && { throughputPerSecond }),
    });
  }
  return { columns, outbound, submitted, failed, parts, lastChangeSeq: changeSeq };
}

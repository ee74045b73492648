import { randomUUID } from 'node:crypto';
import type { SmsOutbound } from '@msg/contracts';
import type { BatchRow } from '../batches/batch-row.js';
import { type PreparedMessage, prepareMessage } from './prepare-message.js';

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
  /** Recipients (E.164) who opted out of the account's messages: they fail as `opted_out`. */
  optedOut?: ReadonlySet<string>;
}

/**
 * Every message of a chunk rendered and checked, in order (what planChunk decides on). Apart so
 * that the caller can look up the opt-outs of the good recipients, all at once, in between.
 */
export function prepareChunk(
  batch: BatchRow,
  messages: readonly PendingMessage[],
  { throughputPerSecond }: Pick<ChunkOptions, 'throughputPerSecond'>,
): PreparedMessage[] {
  return messages.map((message) =>
    throughputPerSecond === undefined
      ? { ok: false, to: message.phone_number, text: null, error: 'account_not_allowed' }
      : prepareMessage(batch.message_template, {
          phoneNumber: message.phone_number,
          fields: message.fields,
        }),
  );
}

/** The E.164 numbers of the good messages of a prepared chunk (those to look up opt-outs for). */
export function sendableNumbers(prepared: readonly PreparedMessage[]): string[] {
  return prepared.flatMap((message) => (message.ok ? [message.to] : []));
}

/**
 * Decides what happens to each message of a chunk, in seq order. Messages to send become
 * 'queued' (decided later by their status report); failures (a recipient who opted out among
 * them), and every good message of a dry run, are decided now and take the next change_seq numbers.
 */
export function planChunk(
  batch: BatchRow,
  messages: readonly PendingMessage[],
  /** prepareChunk's answer for `messages`. */
  prepared: readonly PreparedMessage[],
  { throughputPerSecond, optedOut = new Set() }: ChunkOptions,
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

  for (const [index, message] of messages.entries()) {
    const transactionId = randomUUID();
    const checked = prepared[index];
    if (!checked) throw new Error(`message ${message.seq} was not prepared`);
    const decided: PreparedMessage =
      checked.ok && optedOut.has(checked.to)
        ? { ok: false, to: checked.to, text: checked.text, error: 'opted_out' }
        : checked;
    columns.seq.push(message.seq);
    columns.transactionId.push(transactionId);
    columns.phoneNumber.push(decided.to);
    columns.text.push(decided.text);
    if (!decided.ok) {
      columns.status.push('failed');
      columns.error.push(decided.error);
      columns.parts.push(null);
      columns.changeSeq.push(++changeSeq);
      failed += 1;
      continue;
    }
    columns.error.push(null);
    columns.parts.push(decided.parts);
    parts += decided.parts;
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
      to: decided.to,
      text: decided.text,
      encoding: decided.encoding,
      parts: decided.parts,
      deliveryReport: batch.delivery_report,
      ...(batch.validity_minutes !== null && { validityMinutes: batch.validity_minutes }),
      ...(throughputPerSecond !== undefined && { throughputPerSecond }),
    });
  }
  return { columns, outbound, submitted, failed, parts, lastChangeSeq: changeSeq };
}

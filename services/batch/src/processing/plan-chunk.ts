import { randomUUID } from 'node:crypto';
import type { RefusalReason, SmsToSubmit } from '@msg/sms-submit';
import type { BatchRow } from '../batches/batch-row.js';
import { type PreparedMessage, prepareMessage } from './prepare-message.js';

/** A pending message of the chunk, as read from batch.message. */
export interface PendingMessage {
  seq: number;
  phone_number: string;
  fields: unknown;
}

/** A message of the chunk rendered and checked, with the id it is sent under. */
export interface ChunkMessage {
  seq: number;
  /** `batch.message.transaction_id`, the sms.outbound.v1 messageId of a message sent. */
  transactionId: string;
  prepared: PreparedMessage;
}

/**
 * The new state of every message of a chunk as column arrays (one UPDATE ... FROM unnest) and
 * the batch counters to add.
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
  /** Messages left 'queued' (sent, decided later by their status report). */
  queued: number;
  submitted: number;
  failed: number;
  parts: number;
  /** The batch's last_change_seq after this chunk. */
  lastChangeSeq: number;
}

/**
 * Every message of a chunk rendered and checked, in order, each with a new transaction id; when
 * the account may no longer run batches (`mayRun` false) every one fails as `account_not_allowed`.
 */
export function prepareChunk(
  batch: BatchRow,
  messages: readonly PendingMessage[],
  { mayRun }: { mayRun: boolean },
): ChunkMessage[] {
  return messages.map((message) => ({
    seq: message.seq,
    transactionId: randomUUID(),
    prepared: mayRun
      ? prepareMessage(batch.message_template, {
          phoneNumber: message.phone_number,
          fields: message.fields,
        })
      : { ok: false, to: message.phone_number, text: null, error: 'account_not_allowed' },
  }));
}

/**
 * The good messages of a prepared chunk as SMS to submit, in seq order. Each pays under
 * `batch:<batch id>:<seq>`, which survives a chunk that rolls back: a retried chunk whose charge
 * stayed is not charged twice.
 */
export function smsToSubmit(batch: BatchRow, chunk: readonly ChunkMessage[]): SmsToSubmit[] {
  return chunk.flatMap(({ seq, transactionId, prepared }) =>
    prepared.ok
      ? [
          {
            messageId: transactionId,
            from: batch.sender_id,
            to: prepared.to,
            text: prepared.text,
            encoding: prepared.encoding,
            parts: prepared.parts,
            deliveryReport: batch.delivery_report,
            ...(batch.validity_minutes !== null && { validityMinutes: batch.validity_minutes }),
            billingReference: `batch:${batch.id}:${seq}`,
          },
        ]
      : [],
  );
}

/**
 * Decides what happens to each message of a chunk, in seq order. Good messages become 'queued'
 * (decided later by their status report), or 'submitted' at once in a dry run; failures, a good
 * message refused by submitSms among them (`refused`, by transaction id), are decided now. Every
 * decision takes the next change_seq number in seq order, except that recipients refused for want
 * of funds take theirs after the others: the balance is asked last.
 */
export function planChunk(
  batch: BatchRow,
  chunk: readonly ChunkMessage[],
  refused: ReadonlyMap<string, RefusalReason> = new Map(),
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
  let changeSeq = Number(batch.last_change_seq);
  let queued = 0;
  let submitted = 0;
  let failed = 0;
  let parts = 0;
  const unpaid: number[] = [];

  for (const { seq, transactionId, prepared } of chunk) {
    const error = prepared.ok ? refused.get(transactionId) : prepared.error;
    columns.seq.push(seq);
    columns.transactionId.push(transactionId);
    columns.phoneNumber.push(prepared.to);
    columns.text.push(prepared.text);
    if (error !== undefined || !prepared.ok) {
      columns.status.push('failed');
      columns.error.push(error ?? null);
      columns.parts.push(null);
      if (error === 'insufficient_funds') unpaid.push(columns.changeSeq.length);
      columns.changeSeq.push(error === 'insufficient_funds' ? null : ++changeSeq);
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
    queued += 1;
  }
  for (const row of unpaid) columns.changeSeq[row] = ++changeSeq;
  return { columns, queued, submitted, failed, parts, lastChangeSeq: changeSeq };
}

import type { components } from '@msg/contracts/batch';
import type { Sql } from '@msg/db';
import { MESSAGE_TABLE } from './batch-row.js';

export type MessageDelta = components['schemas']['MessageDelta'];

export interface DeltaPage {
  items: MessageDelta[];
  /** The last change_seq returned, or `afterSeq` when nothing changed since. */
  nextSequence: number;
  hasMore: boolean;
}

interface DeltaRow extends Record<string, unknown> {
  id: string;
  external_message_id: string | null;
  transaction_id: string | null;
  phone_number: string;
  text: string | null;
  status: string;
  submitted_at: Date | null;
  change_seq: string;
}

/**
 * The messages of a batch whose submission status was decided after `afterSeq`, in change order,
 * at most `limit`. change_seq values are handed out under the batch row's lock, so they commit in
 * order and a page never skips a change that commits later.
 */
export async function readDelta(
  sql: Sql,
  batchId: string,
  afterSeq: number,
  limit: number,
): Promise<DeltaPage> {
  const { rows } = await sql.query<DeltaRow>(
    `SELECT id, external_message_id, transaction_id, phone_number, text, status, submitted_at,
            change_seq::text AS change_seq
       FROM ${MESSAGE_TABLE}
      WHERE batch_id = $1 AND change_seq > $2
      ORDER BY message.change_seq
      LIMIT $3`,
    [batchId, afterSeq, limit + 1],
  );
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    items: page.map(toDelta),
    nextSequence: last ? Number(last.change_seq) : afterSeq,
    hasMore: rows.length > limit,
  };
}

function toDelta(row: DeltaRow): MessageDelta {
  return {
    id: row.id,
    external_message_id: row.external_message_id ?? '',
    // Assigned when the message is expanded, before its change_seq: never null here.
    transaction_id: row.transaction_id ?? '',
    phone_number: row.phone_number,
    message: row.text ?? '',
    submission_status: row.status === 'failed' ? 'FAILED' : 'SUBMITTED',
    submission_time: (row.submitted_at ?? new Date()).toISOString(),
  };
}

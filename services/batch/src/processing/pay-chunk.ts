import type { AccountState } from '@msg/contracts';
import { isPrepaid, type PrepaidBilling } from '@msg/sms-submit';
import type { BatchRow } from '../batches/batch-row.js';
import type { ChunkPlan } from './plan-chunk.js';

/** `batch.message.error` of a recipient the prepaid balance could not pay for. */
export const INSUFFICIENT_FUNDS = 'insufficient_funds';

/**
 * Pays for the messages a chunk is about to queue when the account is prepaid (postpaid: the plan
 * as it is, no call). Paid in seq order as far as the balance goes (`chargeInOrder`): the first
 * recipient it cannot cover and every later one of the chunk fail with `insufficient_funds` and
 * are not sent; later chunks try again, so a batch that ran dry fails the rest of its recipients
 * the same way — unless the account is topped up meanwhile. The reference is the batch id and the
 * recipient's seq, which survive a chunk that rolls back: the retried chunk is not charged twice.
 * Throws (503) when the billing API cannot answer; the chunk then rolls back and waits.
 */
export async function payForChunk(
  billing: PrepaidBilling,
  account: AccountState,
  batch: BatchRow,
  plan: ChunkPlan,
): Promise<ChunkPlan> {
  if (plan.outbound.length === 0 || !isPrepaid(account)) return plan;
  const { columns } = plan;
  const row = new Map(columns.transactionId.map((id, i) => [id, i]));
  const rowOf = (messageId: string): number => {
    const i = row.get(messageId);
    if (i === undefined) throw new Error('queued message missing from its chunk plan');
    return i;
  };
  const paid = await billing.chargeInOrder(
    account,
    plan.outbound.map((message) => ({
      reference: `batch:${batch.id}:${columns.seq[rowOf(message.messageId)]}`,
      parts: message.parts,
    })),
  );
  let { lastChangeSeq, failed, parts } = plan;
  const outbound = plan.outbound.filter((message, i) => {
    if (paid[i]) return true;
    const r = rowOf(message.messageId);
    columns.status[r] = 'failed';
    columns.error[r] = INSUFFICIENT_FUNDS;
    columns.parts[r] = null;
    lastChangeSeq += 1;
    columns.changeSeq[r] = lastChangeSeq;
    failed += 1;
    parts -= message.parts;
    return false;
  });
  return { ...plan, columns, outbound, failed, parts, lastChangeSeq };
}

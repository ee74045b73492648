import type { SmsState } from './sms.js';

/**
 * An SMS's states only move forward: accepted < submitted < delivered | failed | expired. The
 * final three share a rank, so once one is reached nothing replaces it. Reports arrive out of
 * order (a submit answer can trail its delivery receipt across partitions and retries), hence the
 * ranks. Every owner of SMS (sms, batch, reply-path, the RCS fallback, the SMPP server) follows
 * this order.
 */
const RANK: Readonly<Record<SmsState, number>> = {
  accepted: 0,
  submitted: 1,
  delivered: 2,
  failed: 2,
  expired: 2,
};

export const FINAL_SMS_STATES: readonly SmsState[] = ['delivered', 'failed', 'expired'];

export function isFinalSmsState(state: SmsState): boolean {
  return FINAL_SMS_STATES.includes(state);
}

/** Whether a report of `next` changes an SMS now in `current`. */
export function smsStateAdvances(current: SmsState, next: SmsState): boolean {
  return RANK[next] > RANK[current];
}

/**
 * The states a report of `next` moves an SMS forward from: for an owner that applies the order in
 * one SQL statement (`WHERE "state" = ANY($n)`), so the rule stays this table.
 */
export function statesAdvancedBy(next: SmsState): SmsState[] {
  return (Object.keys(RANK) as SmsState[]).filter((current) => smsStateAdvances(current, next));
}

export function isSmsState(value: unknown): value is SmsState {
  return typeof value === 'string' && Object.hasOwn(RANK, value);
}

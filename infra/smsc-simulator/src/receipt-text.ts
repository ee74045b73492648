import type { ReceiptOutcome } from './receipt-rules.js';

export type FinalOutcome = Exclude<ReceiptOutcome, 'NORECEIPT'>;

/** message_state TLV values (SMPP 3.4 §5.3.2.35) of each final outcome. */
export const MESSAGE_STATE: Readonly<Record<FinalOutcome, number>> = {
  DELIVRD: 2,
  EXPIRED: 3,
  DELETED: 4,
  UNDELIV: 5,
  UNKNOWN: 7,
  REJECTD: 8,
};

const two = (value: number) => String(value).padStart(2, '0');

/** YYMMDDhhmm in UTC, the date form of the receipt text (SMPP 3.4 Appendix B). */
export function receiptDate(date: Date): string {
  return [
    two(date.getUTCFullYear() % 100),
    two(date.getUTCMonth() + 1),
    two(date.getUTCDate()),
    two(date.getUTCHours()),
    two(date.getUTCMinutes()),
  ].join('');
}

export interface ReceiptTextInput {
  messageId: string;
  outcome: FinalOutcome;
  submittedAt: Date;
  doneAt: Date;
  /** Decoded text of the original message; its first 20 characters are quoted. */
  text: string;
}

/** The de-facto standard receipt text of SMPP 3.4 Appendix B. */
export function formatReceiptText(input: ReceiptTextInput): string {
  const delivered = input.outcome === 'DELIVRD';
  return [
    `id:${input.messageId}`,
    'sub:001',
    `dlvrd:${delivered ? '001' : '000'}`,
    `submit date:${receiptDate(input.submittedAt)}`,
    `done date:${receiptDate(input.doneAt)}`,
    `stat:${input.outcome}`,
    `err:${delivered ? '000' : '001'}`,
    `text:${[...input.text].slice(0, 20).join('')}`,
  ].join(' ');
}

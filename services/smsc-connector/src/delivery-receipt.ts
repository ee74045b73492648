import type { SmsState } from '@msg/contracts';

export type PartFinalState = Extract<SmsState, 'delivered' | 'failed' | 'expired'>;

export interface DeliveryReceipt {
  smscMessageId: string;
  state: PartFinalState;
  stat: string | null;
  err: string | null;
}

/** esm_class message type "SMSC delivery receipt" (SMPP 3.4 §5.2.12, bits 2-5 = 0001). */
const ESM_CLASS_RECEIPT = 0x04;

const STATE_BY_MESSAGE_STATE: Readonly<Record<number, PartFinalState>> = {
  2: 'delivered', // DELIVERED
  3: 'expired', // EXPIRED
  4: 'failed', // DELETED
  5: 'failed', // UNDELIVERABLE
  7: 'failed', // UNKNOWN
  8: 'failed', // REJECTED
};

const STATE_BY_STAT: Readonly<Record<string, PartFinalState>> = {
  DELIVRD: 'delivered',
  EXPIRED: 'expired',
  UNDELIV: 'failed',
  REJECTD: 'failed',
  DELETED: 'failed',
  UNKNOWN: 'failed',
};

export function isReceipt(esmClass: number, receiptedMessageId: unknown): boolean {
  return (esmClass & 0x3c) === ESM_CLASS_RECEIPT || typeof receiptedMessageId === 'string';
}

function field(text: string, name: string): string | null {
  const match = new RegExp(`(?:^|\\s)${name}:(\\S+)`, 'i').exec(text);
  return match?.[1] ?? null;
}

/**
 * Reads a receipt: the id from the receipted_message_id TLV, else the `id:` of the Appendix B
 * text; the state from the message_state TLV, else the text's `stat:`. Undefined when neither
 * says which message or which final state (e.g. ENROUTE/ACCEPTD intermediate notifications).
 */
export function parseDeliveryReceipt(input: {
  receiptedMessageId?: unknown;
  messageState?: unknown;
  text: string;
}): DeliveryReceipt | undefined {
  const stat = field(input.text, 'stat');
  const err = field(input.text, 'err');
  const smscMessageId =
    typeof input.receiptedMessageId === 'string' && input.receiptedMessageId.length > 0
      ? input.receiptedMessageId
      : field(input.text, 'id');
  const state =
    (typeof input.messageState === 'number'
      ? STATE_BY_MESSAGE_STATE[input.messageState]
      : undefined) ?? (stat ? STATE_BY_STAT[stat.toUpperCase()] : undefined);
  if (!smscMessageId || !state) return undefined;
  return { smscMessageId, state, stat, err };
}

/**
 * One state for a message from its parts' final states: delivered when every part was, expired
 * when some expired and none failed, failed otherwise.
 */
export function combinePartStates(states: readonly PartFinalState[]): PartFinalState {
  if (states.every((state) => state === 'delivered')) return 'delivered';
  if (states.includes('failed')) return 'failed';
  return 'expired';
}

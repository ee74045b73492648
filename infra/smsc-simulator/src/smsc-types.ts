import type { ReceiptOutcome, ReceiptRule } from './receipt-rules.js';
import type { SubmitSmFields } from './submit-sm-wire.js';

export interface SmscCredential {
  systemId: string;
  password: string;
}

export type BindMode = 'transceiver' | 'transmitter' | 'receiver';

/** One submit_sm as it arrived, for tests to inspect (GET /submits). */
export interface RecordedSubmit extends SubmitSmFields {
  /** The message_id answered in submit_sm_resp. */
  messageId: string;
  systemId: string;
  receivedAt: string;
  /**
   * The outcome the rules chose, when registered_delivery asked for a receipt of it; null when it
   * did not. NORECEIPT: asked for, but the rules suppress it.
   */
  receiptOutcome: ReceiptOutcome | null;
}

export interface SmscStats {
  /** Successful binds since start (or reset). */
  binds: number;
  bindsRefused: number;
  /** Sessions bound right now. */
  boundSessions: number;
  /** submit_sm answered with a message id. */
  submits: number;
  /** When the first and the last of those arrived (ISO 8601); null before any. Benchmarks time
   * a run from them without fetching every recorded submit. */
  firstSubmitAt: string | null;
  lastSubmitAt: string | null;
  /** submit_sm answered ESME_RTHROTTLED. */
  throttled: number;
  /** submit_sm answered ESME_RMSGQFUL. */
  queueFull: number;
  /** Receipt deliver_sm written to a session (a retry after a lost session counts again). */
  receiptsSent: number;
  /** Receipt deliver_sm answered with deliver_sm_resp OK. */
  receiptsAcknowledged: number;
  /** Receipts due but waiting for a receiver or transceiver bind of their system_id. */
  receiptsPending: number;
  /** Mobile-originated deliver_sm sent through POST /inbound (a resend after a refusal counts again). */
  inboundSent: number;
  /** Mobile-originated deliver_sm answered with deliver_sm_resp OK (the client stored it). */
  inboundAcknowledged: number;
  /** Mobile-originated deliver_sm answered with an error; each is sent again a second later. */
  inboundRefused: number;
}

export interface ThrottleSettings {
  /** Submits per second accepted per bind; null for no limit. */
  perSecond: number | null;
  /** When true every submit_sm is answered ESME_RMSGQFUL. */
  queueFull: boolean;
}

export interface InboundMessage {
  from: string;
  to: string;
  text: string;
  /** Deliver only to sessions of this system_id; any bound receiver when absent. */
  systemId?: string;
}

/** What the control API (and tests in-process) can do with a running simulator. */
export interface SmscControl {
  /**
   * The recorded submits still kept (the newest, see maxRecordedSubmits), oldest first; with
   * `from`, only those numbered `from` or later (numbered from 0 since start or reset).
   */
  submits(from?: number): readonly RecordedSubmit[];
  /** Submits recorded since start or reset, forgotten ones included: the next one's number. */
  submitsRecorded(): number;
  stats(): SmscStats;
  rules(): readonly ReceiptRule[];
  setRules(rules: readonly ReceiptRule[]): void;
  throttle(): ThrottleSettings;
  setThrottle(settings: ThrottleSettings): void;
  /** Sends a mobile-originated SMS; its message id, or null when no receiver is bound. */
  sendInbound(message: InboundMessage): string | null;
  /** Drops every SMPP connection; returns how many there were. */
  dropSessions(): number;
  refuseBinds(refuse: boolean): void;
  /** Forgets recorded submits, counters and pending receipts; settings go back to the start-up ones. */
  reset(): void;
}

import { type BusMessage, enqueueOutbox, outboxInsert, type SqlPart } from '@msg/bus';
import {
  type AccountState,
  makeEvent,
  SMS_OUTBOUND_EVENT,
  type SmsOutbound,
  type SmsSource,
  Topics,
} from '@msg/contracts';
import type { Sql } from '@msg/db';
import type { PrepaidBilling } from './prepaid-billing.js';

/**
 * One SMS to submit: what goes to the SMS centre (the sms.outbound.v1 payload's own fields, as
 * `SmsOutbound` documents them; the account's come from the account) and what it costs.
 */
export interface SmsToSubmit
  extends Pick<
    SmsOutbound,
    'messageId' | 'to' | 'text' | 'encoding' | 'parts' | 'deliveryReport' | 'validityMinutes'
  > {
  /** The sender; absent where the write chooses it (a reply-path pool number): see `outbound`. */
  from?: string;
  /** The debit's reference, stable across retries of the same message; default `messageId`. */
  billingReference?: string;
}

/** Why a message was not submitted; batch stores it as the recipient's error. */
export type RefusalReason = 'opted_out' | 'insufficient_funds';

export interface RefusedSms {
  /** Its place in `messages`. */
  index: number;
  sms: SmsToSubmit;
  reason: RefusalReason;
}

/** The sms.outbound.v1 events of the queued messages, to write in the caller's transaction. */
export interface OutboundSms {
  readonly messages: readonly BusMessage[];
}

/** What the caller's transaction writes: its own rows for every message, and `outbound()`. */
export interface Submission {
  queued: SmsToSubmit[];
  refused: RefusedSms[];
  /**
   * The sms.outbound.v1 events of `queued`. `senders` (by messageId) gives the senders chosen in
   * the transaction itself, for messages submitted without `from`.
   */
  outbound(senders?: ReadonlyMap<string, string>): OutboundSms;
}

export interface SubmitRequest<T> {
  account: AccountState;
  source: SmsSource;
  messages: readonly SmsToSubmit[];
  /**
   * `all`: one refused message refuses the whole submission: nothing is charged or written (an
   * API call with several recipients). `each`: a refused message fails alone and the others go
   * on; the write gets both (a batch chunk).
   */
  refuse: 'all' | 'each';
  /** Which of the recipients opted out of the account's messages (the service's replica). */
  optedOut(recipients: readonly string[]): Promise<ReadonlySet<string>>;
  /**
   * The caller's transaction: its own rows and `outbound` (queueOutbound, or outboundInsert in a
   * statement of its own) commit together, or not at all, in which case it throws.
   */
  write(submission: Submission): Promise<T>;
  /** Whether the write took the queued messages after all (default yes); if not, they are refunded. */
  written?(result: T): boolean;
  traceId?: string;
}

export type SubmitOutcome<T> =
  | { ok: true; result: T; refused: RefusedSms[] }
  | { ok: false; refused: RefusedSms[] };

const referenceOf = (sms: SmsToSubmit): string => sms.billingReference ?? sms.messageId;

/**
 * The one way an SMS is sent, whatever the interface (sms, batch, reply-path, the RCS fallback,
 * the SMPP server), in one fixed order so that nothing refused is ever paid and nothing unpaid is
 * ever sent:
 * 1. recipients who opted out of the account are refused, before anything is charged;
 * 2. a prepaid account pays each message's parts, in order, as far as its balance goes
 *    (postpaid: no call); an unpaid message is refused;
 * 3. the caller's transaction writes its rows and the sms.outbound.v1 outbox rows;
 * 4. when that transaction fails (it throws) or did not take the messages (`written`), their
 *    charges go back.
 * The caller renders refusals in its own interface's format; billing that cannot answer throws
 * (503) before anything is written.
 */
export async function submitSms<T>(
  billing: PrepaidBilling,
  request: SubmitRequest<T>,
): Promise<SubmitOutcome<T>> {
  const { account, messages } = request;
  const optedOut = await request.optedOut(messages.map((sms) => sms.to));
  const refused: RefusedSms[] = [];
  const reachable: { index: number; sms: SmsToSubmit }[] = [];
  for (const [index, sms] of messages.entries()) {
    if (optedOut.has(sms.to)) refused.push({ index, sms, reason: 'opted_out' });
    else reachable.push({ index, sms });
  }
  if (request.refuse === 'all' && refused.length > 0) return { ok: false, refused };

  const paid = await billing.chargeInOrder(
    account,
    reachable.map(({ sms }) => ({ reference: referenceOf(sms), parts: sms.parts })),
  );
  const queued = reachable.filter((_, i) => paid[i]).map(({ sms }) => sms);
  for (const [i, { index, sms }] of reachable.entries()) {
    if (!paid[i]) refused.push({ index, sms, reason: 'insufficient_funds' });
  }
  refused.sort((a, b) => a.index - b.index);
  if (request.refuse === 'all' && refused.length > 0) {
    await refund(billing, account, queued);
    return { ok: false, refused };
  }

  const outbound = (senders?: ReadonlyMap<string, string>): OutboundSms => ({
    messages: queued.map((sms) => {
      const from = sms.from ?? senders?.get(sms.messageId);
      if (from === undefined) throw new Error(`sms-submit: no sender for ${sms.messageId}`);
      return outboundMessage(account, request.source, { ...sms, from }, request.traceId);
    }),
  });
  let result: T;
  try {
    result = await request.write({ queued, refused, outbound });
  } catch (error) {
    // Paid but not stored: the send fails, so its credits go back.
    await refund(billing, account, queued);
    throw error;
  }
  if (request.written && !request.written(result)) await refund(billing, account, queued);
  return { ok: true, result, refused };
}

/** Gives back what messages paid (best effort, never throws; postpaid: no call). */
async function refund(
  billing: PrepaidBilling,
  account: AccountState,
  messages: readonly SmsToSubmit[],
): Promise<void> {
  await Promise.all(messages.map((sms) => billing.refund(account, referenceOf(sms))));
}

function outboundMessage(
  account: AccountState,
  source: SmsSource,
  sms: SmsToSubmit & { from: string },
  traceId: string | undefined,
): BusMessage {
  const payload: SmsOutbound = {
    messageId: sms.messageId,
    accountId: account.id,
    source,
    from: sms.from,
    to: sms.to,
    text: sms.text,
    encoding: sms.encoding,
    parts: sms.parts,
    deliveryReport: sms.deliveryReport,
    ...(sms.validityMinutes !== undefined && { validityMinutes: sms.validityMinutes }),
    throughputPerSecond: account.smsThroughputPerSecond,
  };
  return {
    // Keyed by account: per-account order and throughput at the connector.
    key: account.id,
    value: makeEvent(SMS_OUTBOUND_EVENT, payload, {
      accountId: account.id,
      ...(traceId && { traceId }),
    }),
  };
}

/** Writes the outbound rows into `schema`'s outbox in the caller's transaction `sql`. */
export async function queueOutbound(
  sql: Sql,
  schema: string,
  outbound: OutboundSms,
): Promise<void> {
  if (outbound.messages.length === 0) return;
  await enqueueOutbox(sql, schema, Topics.smsOutbound, [...outbound.messages]);
}

/**
 * The outbound rows as part of one statement of the caller's (a CTE beside its own rows), its
 * parameters numbered from `firstParam`: one round trip for a whole intake batch.
 */
export function outboundInsert(schema: string, outbound: OutboundSms, firstParam: number): SqlPart {
  return outboxInsert(schema, Topics.smsOutbound, [...outbound.messages], firstParam);
}

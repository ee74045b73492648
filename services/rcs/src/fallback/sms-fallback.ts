import { createHash } from 'node:crypto';
import { enqueueOutbox } from '@msg/bus';
import {
  type AccountState,
  makeEvent,
  SMS_OUTBOUND_EVENT,
  type SmsOutbound,
  Topics,
} from '@msg/contracts';
import { withTransaction } from '@msg/db';
import type { Logger } from '@msg/logger';
import { isOptedOut } from '@msg/optout';
import type { PrepaidBilling } from '@msg/sms-submit';
import { checkLength, checkSenderPermission, type ProtectedNames } from '@msg/sms-text';
import type pg from 'pg';
import type { FallbackSms } from '../messages/message-store.js';
import { RCS_SCHEMA } from '../schema.js';
import {
  enqueueOutcome,
  failMessage,
  lockMessage,
  type MessageRef,
  SETTLED_STATES,
} from './message-outcome.js';

/** A message that could not go over RCS, with the SMS to send instead. */
export interface FallbackMessage extends MessageRef {
  recipient: string;
  smsFallback: FallbackSms;
}

/** Why it could not go over RCS (logged; the outcome events are the same for each). */
export type FallbackCause = 'not_capable' | 'ttl_expired' | 'rbm_rejected';

export interface SmsFallbackDeps {
  pool: pg.Pool;
  /** The account directory (accounts.v1): billing mode, status, SMS throughput, sender ids. */
  accountById(id: string): AccountState | undefined;
  /** The operator's protected sender names as they are now (senders.protected.v1). */
  protectedNames(): ProtectedNames;
  /**
   * @msg/auth prepaid billing, built with `refuse: (parts) => new SmsFallbackRefused(...)` so a
   * balance that does not cover the SMS rejects the fallback; postpaid accounts make no call.
   */
  billing: PrepaidBilling;
  logger: Logger;
  now?: () => Date;
}

/** A refusal of the SMS before it is sent: the message fails with SMS_FALLBACK_REJECTED. */
export class SmsFallbackRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SmsFallbackRefused';
  }
}

/**
 * The fallback SMS's id (its sms.outbound.v1 messageId and billing reference), derived from the
 * RCS message id (an RFC 9562 version 8 UUID of sha256): a redelivered trigger that paid before
 * it crashed pays nothing again (debits are idempotent by reference), and one message has one SMS.
 */
export function fallbackSmsId(messageId: string): string {
  const hex = createHash('sha256').update(`rcs-sms-fallback\n${messageId}`).digest('hex');
  const variant = ((Number.parseInt(hex[16] as string, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * What refuses the SMS before anything is paid or sent, as the SMS interface refuses it: a
 * disabled account, a sender the account may not use or a text outside the SMS rules
 * (@msg/sms-text; checked at intake, this catches what changed since: the account's sender ids,
 * the operator's protected names, rules that tightened), a recipient who opted out of the
 * account's messages (the optouts.v1 replica of @msg/optout in schema rcs).
 */
async function refusal(
  pool: pg.Pool,
  account: AccountState | undefined,
  message: FallbackMessage,
  protectedNames: ProtectedNames,
): Promise<string | undefined> {
  if (!account) return 'account unknown';
  if (account.status !== 'active') return 'account disabled';
  const sender = checkSenderPermission({
    sender: message.smsFallback.sender,
    registered: account.senderIds,
    protectedNames,
  });
  if (!sender.ok) return `sender: ${sender.message}`;
  if (!checkLength(message.smsFallback.text).ok) return 'text outside the SMS limits';
  if (await isOptedOut(pool, RCS_SCHEMA, message.accountId, message.recipient)) {
    return 'recipient opted out';
  }
  return undefined;
}

/**
 * The SMS fallback of an RCS message (beyond the specification; Vonage `failover[]`, Infobip
 * `smsFailover`): sends the message's SMS through the SMS path the way the reply-path service
 * does — an sms.outbound.v1 event (source `rcs`) for the smsc-connector, written through the
 * outbox with the message's new state `fallback_sms` and its `sms.out.sent` event (with
 * `sms_transaction_id`) in one transaction. Refused (disabled account, SMS rules, opted out, no
 * prepaid funds): state `failed` and `rcs.out.failed` SMS_FALLBACK_REJECTED. The SMS centre
 * failing the SMS later is the status consumer's (sms-status.ts).
 *
 * Idempotent per message: a message already settled (delivered, read, fallen back, failed) is left
 * alone, the SMS id is derived from the message id, and the transition runs under the message's
 * row lock. Throws (the caller retries) only when billing or the database is unavailable.
 */
export function createSmsFallback({
  pool,
  accountById,
  protectedNames,
  billing,
  logger,
  now = () => new Date(),
}: SmsFallbackDeps) {
  const log = logger.child({ component: 'rcs-sms-fallback' });

  const settled = (state: string | undefined) =>
    state === undefined || SETTLED_STATES.includes(state);
  /** Runs `change` under the message's lock unless the message is settled; answers what it found. */
  const transition = (messageId: string, change: (sql: pg.PoolClient) => Promise<void>) =>
    withTransaction(pool, async (sql) => {
      const found = await lockMessage(sql, messageId);
      if (!settled(found?.state)) await change(sql);
      return found;
    });

  async function reject(message: FallbackMessage, why: string): Promise<void> {
    const found = await transition(message.id, (sql) =>
      failMessage(sql, message, 'SMS_FALLBACK_REJECTED', now()),
    );
    if (!settled(found?.state)) log.info('sms fallback rejected', { messageId: message.id, why });
  }

  return {
    async send(message: FallbackMessage, cause: FallbackCause): Promise<void> {
      const { rows } = await pool.query<{ state: string }>(
        `SELECT "state" FROM "${RCS_SCHEMA}"."messages" WHERE "id" = $1`,
        [message.id],
      );
      if (settled(rows[0]?.state)) return;
      const account = accountById(message.accountId);
      const refused = await refusal(pool, account, message, protectedNames());
      const length = checkLength(message.smsFallback.text);
      if (refused !== undefined || !account || !length.ok) {
        return reject(message, refused ?? 'account unknown');
      }
      const smsId = fallbackSmsId(message.id);
      try {
        await billing.charge(account, smsId, length.parts);
      } catch (error) {
        if (error instanceof SmsFallbackRefused) return reject(message, error.message);
        throw error;
      }
      const outbound: SmsOutbound = {
        messageId: smsId,
        accountId: account.id,
        source: 'rcs',
        from: message.smsFallback.sender,
        to: message.recipient,
        text: message.smsFallback.text,
        encoding: length.encoding,
        parts: length.parts,
        // Always: the receipt is what tells a failed SMS (SMS_FALLBACK_FAILED) from a sent one.
        deliveryReport: true,
        throughputPerSecond: account.smsThroughputPerSecond,
      };
      let found: Awaited<ReturnType<typeof lockMessage>>;
      try {
        found = await transition(message.id, async (sql) => {
          await sql.query(
            `UPDATE "${RCS_SCHEMA}"."messages"
                SET "state" = 'fallback_sms', "sms_transaction_id" = $2, "expires_at" = NULL
              WHERE "id" = $1`,
            [message.id, smsId],
          );
          await enqueueOutbox(sql, RCS_SCHEMA, Topics.smsOutbound, [
            // Keyed by account: per-account order and throughput at the connector.
            {
              key: account.id,
              value: makeEvent(SMS_OUTBOUND_EVENT, outbound, { accountId: account.id }),
            },
          ]);
          await enqueueOutcome(sql, message, 'sms.out.sent', now(), { sms_transaction_id: smsId });
        });
      } catch (error) {
        // Paid but not stored: the credits go back (the next attempt pays again).
        await billing.refund(account, smsId);
        throw error;
      }
      if (!settled(found?.state)) {
        log.info('sms fallback sent', { messageId: message.id, smsId, cause });
        return;
      }
      // Settled meanwhile (delivered, failed): the payment goes back — unless this very SMS was
      // sent by a concurrent trigger of the same message (same reference, one debit).
      if (!found?.smsTransactionId) await billing.refund(account, smsId);
    },
  };
}

export type SmsFallbackSender = ReturnType<typeof createSmsFallback>;

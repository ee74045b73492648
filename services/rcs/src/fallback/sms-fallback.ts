import { createHash } from 'node:crypto';
import type { AccountState } from '@msg/contracts';
import { withTransaction } from '@msg/db';
import type { Logger } from '@msg/logger';
import { optedOutAmong } from '@msg/optout';
import {
  checkSms,
  insufficientFundsMessage,
  type NumberRule,
  type PrepaidBilling,
  queueOutbound,
  type RefusalReason,
  submitSms,
} from '@msg/sms-submit';
import type { ProtectedNames } from '@msg/sms-text';
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
   * Prepaid billing of @msg/sms-submit: a balance that does not cover the SMS rejects the
   * fallback; postpaid accounts make no call.
   */
  billing: PrepaidBilling;
  logger: Logger;
  now?: () => Date;
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
 * Where the send request took the fallback SMS (the reasons' field names); the recipient is the
 * message's own.
 */
const FIELDS = {
  to: ['body', 'recipient'],
  from: ['body', 'sms_fallback', 'sender'],
  text: ['body', 'sms_fallback', 'text'],
};
/** The recipient is E.164 already: the send request's document admits nothing else. */
const AS_GIVEN: NumberRule = (to) => ({ ok: true, e164: to });

/** Why submitSms refused the SMS, for the log. */
const REFUSED: Record<RefusalReason, (parts: number) => string> = {
  opted_out: () => 'recipient opted out',
  insufficient_funds: insufficientFundsMessage,
};

/**
 * The SMS fallback of an RCS message (beyond the specification; Vonage `failover[]`, Infobip
 * `smsFailover`): sends the message's SMS the one SMS way (submitSms of @msg/sms-submit, source
 * `rcs`): its sms.outbound.v1 event for the smsc-connector is written through the outbox with
 * the message's new state `fallback_sms` and its `sms.out.sent` event (with
 * `sms_transaction_id`) in one transaction. Refused (a disabled account; the SMS rules, checkSms:
 * checked at intake, this catches what changed since: the account's sender ids, the operator's
 * protected names, rules that tightened; a recipient who opted out of the account's messages, in
 * the optouts.v1 replica of @msg/optout in schema rcs, before anything is paid; no prepaid
 * funds): state `failed` and `rcs.out.failed` SMS_FALLBACK_REJECTED. The SMS centre failing the
 * SMS later is the status consumer's (sms-status.ts).
 *
 * Idempotent per message: a message already settled (delivered, read, fallen back, failed) is left
 * alone, the SMS id is derived from the message id (its billing reference too), and the transition
 * runs under the message's row lock. Throws (the caller retries) only when billing or the
 * database is unavailable.
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
      if (!account) return reject(message, 'account unknown');
      if (account.status !== 'active') return reject(message, 'account disabled');
      const checked = checkSms(
        {
          to: [message.recipient],
          from: message.smsFallback.sender,
          text: message.smsFallback.text,
        },
        {
          fields: FIELDS,
          number: AS_GIVEN,
          senders: { registered: account.senderIds, protectedNames: protectedNames() },
        },
      );
      if (!checked.ok) {
        const why = checked.broken.map((b) => `${b.loc.at(-1)}: ${b.msg}`).join('; ');
        return reject(message, why);
      }
      const { sms } = checked;
      const smsId = fallbackSmsId(message.id);
      const submitted = await submitSms(billing, {
        account,
        source: 'rcs',
        refuse: 'all',
        messages: [
          {
            messageId: smsId,
            from: message.smsFallback.sender,
            to: message.recipient,
            text: sms.text,
            encoding: sms.encoding,
            parts: sms.parts,
            // Always: the receipt is what tells a failed SMS (SMS_FALLBACK_FAILED) from a sent one.
            deliveryReport: true,
          },
        ],
        optedOut: (recipients) => optedOutAmong(pool, RCS_SCHEMA, account.id, recipients),
        write: ({ outbound }) =>
          transition(message.id, async (sql) => {
            await sql.query(
              `UPDATE "${RCS_SCHEMA}"."messages"
                  SET "state" = 'fallback_sms', "sms_transaction_id" = $2, "expires_at" = NULL
                WHERE "id" = $1`,
              [message.id, smsId],
            );
            await queueOutbound(sql, RCS_SCHEMA, outbound());
            await enqueueOutcome(sql, message, 'sms.out.sent', now(), {
              sms_transaction_id: smsId,
            });
          }),
        // Settled meanwhile (delivered, failed): the payment goes back — unless this very SMS was
        // sent by a concurrent trigger of the same message (same reference, one debit).
        written: (found) => !settled(found?.state) || Boolean(found?.smsTransactionId),
      });
      if (!submitted.ok) {
        const [refused] = submitted.refused;
        return reject(message, refused ? REFUSED[refused.reason](sms.parts) : 'refused');
      }
      if (!settled(submitted.result?.state)) {
        log.info('sms fallback sent', { messageId: message.id, smsId, cause });
      }
    },
  };
}

export type SmsFallbackSender = ReturnType<typeof createSmsFallback>;

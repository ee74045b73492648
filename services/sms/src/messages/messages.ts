import { randomUUID } from 'node:crypto';
import type { PrepaidBilling } from '@msg/auth';
import {
  type AccountState,
  makeEvent,
  optOutKey,
  SMS_OUTBOUND_EVENT,
  type SmsOutbound,
} from '@msg/contracts';
import { createBatcher, isUuid } from '@msg/db';
import { NotFoundError } from '@msg/http';
import { OptedOutError, optedOutPairs } from '@msg/optout';
import type pg from 'pg';
import type { PrismaClient } from '../generated/prisma/client.js';
import { SMS_SCHEMA } from '../schema.js';
import { type AcceptedMessage, insertAcceptedMessages } from './message-store.js';
import { type MessageView, toMessageView } from './message-view.js';
import type { AcceptedSms } from './send-request.js';

/**
 * The use cases behind the HTTP operations. A message and its sms.outbound.v1 event are written in
 * one transaction (outbox): an answered messageId is always sent, and nothing is sent that was
 * not stored. The intake is a hot path: sends that arrive together are written by one SQL
 * statement through pg (message-store.ts, `createBatcher` of `@msg/db`); reads go through Prisma.
 *
 * Recipients who opted out of the account (the replica of optouts.v1, @msg/optout) are refused
 * before anything is written: one primary-key lookup per group of sends written together.
 */
export function createMessages({
  prisma,
  pool,
  billing,
}: {
  prisma: PrismaClient;
  pool: pg.Pool;
  billing: PrepaidBilling;
}) {
  const intake = createBatcher<AcceptedMessage, 'accepted' | 'opted_out'>({
    run: async (messages) => {
      const optedOut = await optedOutPairs(
        pool,
        SMS_SCHEMA,
        messages.map(({ row }) => ({ accountId: row.accountId, msisdn: row.recipient })),
      );
      const refused = ({ row }: AcceptedMessage) =>
        optedOut.has(optOutKey(row.accountId, row.recipient));
      const accepted = messages.filter((message) => !refused(message));
      if (accepted.length > 0) await insertAcceptedMessages(pool, accepted);
      return messages.map((message) => (refused(message) ? 'opted_out' : 'accepted'));
    },
  });
  return {
    /**
     * Stores an accepted message and queues it for the smsc-connector; answers its id. A prepaid
     * account pays its parts first (InsufficientFundsError, 402, when its balance cannot), keyed
     * by the message id, so nothing unpaid is stored and nothing is paid twice. A recipient who
     * opted out of the account is refused (OptedOutError, 400 naming `to`); that message, like
     * one whose store fails, is refunded (a no-op when postpaid).
     */
    async accept(account: AccountState, sms: AcceptedSms, traceId?: string): Promise<string> {
      const messageId = randomUUID();
      await billing.charge(account, messageId, sms.parts);
      const outbound: SmsOutbound = {
        messageId,
        accountId: account.id,
        source: 'sms',
        from: sms.from,
        to: sms.to,
        text: sms.text,
        encoding: sms.encoding,
        parts: sms.parts,
        // Always: without a receipt the status would stop at submitted.
        deliveryReport: true,
        throughputPerSecond: account.smsThroughputPerSecond,
      };
      const event = makeEvent(SMS_OUTBOUND_EVENT, outbound, {
        accountId: account.id,
        ...(traceId && { traceId }),
      });
      const stored = intake.add({
        row: {
          id: messageId,
          accountId: account.id,
          recipient: sms.to,
          sender: sms.from,
          text: sms.text,
          encoding: sms.encoding,
          parts: sms.parts,
          callbackUrl: sms.callbackUrl ?? null,
        },
        // Keyed by account: per-account order and throughput at the connector.
        outbound: { key: account.id, value: event },
      });
      let outcome: 'accepted' | 'opted_out';
      try {
        outcome = await stored;
      } catch (error) {
        // Paid but not stored: the send fails, so its credits go back.
        await billing.refund(account, messageId);
        throw error;
      }
      if (outcome === 'opted_out') {
        await billing.refund(account, messageId);
        throw new OptedOutError(['body', 'to']);
      }
      return messageId;
    },

    /** One message of the account; another account's message is as unknown as a missing one. */
    async get(accountId: string, messageId: string): Promise<MessageView> {
      const record = isUuid(messageId)
        ? await prisma.message.findFirst({ where: { id: messageId, accountId } })
        : null;
      if (!record) throw new NotFoundError(`message ${messageId} not found`);
      return toMessageView(record);
    },
  };
}

export type Messages = ReturnType<typeof createMessages>;

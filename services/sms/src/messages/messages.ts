import { randomUUID } from 'node:crypto';
import {
  type AccountState,
  makeEvent,
  optOutKey,
  SMS_OUTBOUND_EVENT,
  type SmsOutbound,
} from '@msg/contracts';
import { createBatcher } from '@msg/db';
import { NotFoundError } from '@msg/http';
import { OptedOutError, optedOutPairs } from '@msg/optout';
import type pg from 'pg';
import type { PrismaClient } from '../generated/prisma/client.js';
import { type AcceptedMessage, insertAcceptedMessages, SMS_SCHEMA } from './message-store.js';
import { type MessageView, toMessageView } from './message-view.js';
import type { AcceptedSms } from './send-request.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The use cases behind the HTTP operations. A message and its sms.outbound.v1 event are written in
 * one transaction (outbox): an answered messageId is always sent, and nothing is sent that was
 * not stored. The intake is a hot path: sends that arrive together are written by one SQL
 * statement through pg (message-store.ts, `createBatcher` of `@msg/db`); reads go through Prisma.
 *
 * Recipients who opted out of the account (the replica of optouts.v1, @msg/optout) are refused
 * before anything is written: one primary-key lookup per group of sends written together.
 */
export function createMessages({ prisma, pool }: { prisma: PrismaClient; pool: pg.Pool }) {
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
     * Stores an accepted message and queues it for the smsc-connector; answers its id. A recipient
     * who opted out of the account is refused (OptedOutError, 400 naming `to`).
     */
    async accept(account: AccountState, sms: AcceptedSms, traceId?: string): Promise<string> {
      const messageId = randomUUID();
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
      const outcome = await intake.add({
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
      if (outcome === 'opted_out') throw new OptedOutError(['body', 'to']);
      return messageId;
    },

    /** One message of the account; another account's message is as unknown as a missing one. */
    async get(accountId: string, messageId: string): Promise<MessageView> {
      const record = UUID.test(messageId)
        ? await prisma.message.findFirst({ where: { id: messageId, accountId } })
        : null;
      if (!record) throw new NotFoundError(`message ${messageId} not found`);
      return toMessageView(record);
    },
  };
}

export type Messages = ReturnType<typeof createMessages>;

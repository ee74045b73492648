import { randomUUID } from 'node:crypto';
import { type AccountState, optOutKey } from '@msg/contracts';
import { createBatcher, isUuid } from '@msg/db';
import { NotFoundError } from '@msg/http';
import { OptedOutError, optedOutPairs, type Recipient } from '@msg/optout';
import { InsufficientFundsError, type PrepaidBilling, submitSms } from '@msg/sms-submit';
import type pg from 'pg';
import type { PrismaClient } from '../generated/prisma/client.js';
import { SMS_SCHEMA } from '../schema.js';
import { type AcceptedMessage, insertAcceptedMessages } from './message-store.js';
import { type MessageView, toMessageView } from './message-view.js';
import type { AcceptedSms } from './send-request.js';

/**
 * The use cases behind the HTTP operations. A send goes the one SMS path (submitSms of
 * @msg/sms-submit): an opted-out recipient is refused (400 naming `to`) before anything is
 * charged, a prepaid account pays its parts (402 when its balance cannot), and the message and
 * its sms.outbound.v1 event are written in one statement (outbox): an answered messageId is always
 * sent, and nothing is sent that was not stored.
 *
 * The intake is a hot path: the opt-out lookups of sends that arrive together are one statement,
 * and so are their writes (message-store.ts, `createBatcher` of `@msg/db`); reads go through
 * Prisma.
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
  const optOuts = createBatcher<Recipient, boolean>({
    run: async (recipients) => {
      const optedOut = await optedOutPairs(pool, SMS_SCHEMA, recipients);
      return recipients.map((r) => optedOut.has(optOutKey(r.accountId, r.msisdn)));
    },
  });
  const intake = createBatcher<AcceptedMessage, void>({
    run: async (messages) => {
      await insertAcceptedMessages(pool, messages);
      return messages.map(() => undefined);
    },
  });
  return {
    /** Stores an accepted message and queues it for the smsc-connector; answers its id. */
    async accept(account: AccountState, sms: AcceptedSms, traceId?: string): Promise<string> {
      const messageId = randomUUID();
      const submitted = await submitSms(billing, {
        account,
        source: 'sms',
        refuse: 'all',
        messages: [
          {
            messageId,
            from: sms.from,
            to: sms.to,
            text: sms.text,
            encoding: sms.encoding,
            parts: sms.parts,
            // Always: without a receipt the status would stop at submitted.
            deliveryReport: true,
          },
        ],
        optedOut: async ([msisdn]) =>
          msisdn !== undefined && (await optOuts.add({ accountId: account.id, msisdn }))
            ? new Set([msisdn])
            : new Set(),
        write: ({ outbound }) =>
          intake.add({
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
            outbound: outbound(),
          }),
        ...(traceId && { traceId }),
      });
      if (!submitted.ok) {
        if (submitted.refused[0]?.reason === 'opted_out') throw new OptedOutError(['body', 'to']);
        throw new InsufficientFundsError(sms.parts);
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

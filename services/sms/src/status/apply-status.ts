import { claimEvent, enqueueOutbox } from '@msg/bus';
import type { AccountState, EventEnvelope, SmsStatus } from '@msg/contracts';
import { Topics } from '@msg/contracts';
import { prismaSql } from '@msg/db';
import { isClientUrl } from '@msg/http';
import type { Logger } from '@msg/logger';
import type { PrismaClient } from '../generated/prisma/client.js';
import { SMS_SCHEMA } from '../messages/messages.js';
import { advances, isFinal, isSmsState } from '../messages/status-order.js';
import { statusCallback } from './status-callback.js';

/** Consumer name of the status consumer in processed_event (and its consumer group). */
export const STATUS_CONSUMER = 'sms-status';

export interface ApplyStatusDeps {
  prisma: PrismaClient;
  /** The account's current delivery-report URL comes from here when a message has no callback_url. */
  accountById: (id: string) => AccountState | undefined;
  logger: Logger;
}

export type StatusOutcome = 'applied' | 'duplicate' | 'stale' | 'unknown-message';

/**
 * Applies one status report to its message: the dedupe claim, the status change and the callback
 * request are one transaction, so a report is applied exactly once and its callback is queued
 * if and only if the change commits.
 */
export function createStatusApplier({ prisma, accountById, logger }: ApplyStatusDeps) {
  return async function applyStatus(
    envelope: EventEnvelope,
    status: SmsStatus,
  ): Promise<StatusOutcome> {
    return prisma.$transaction(async (tx) => {
      const sql = prismaSql(tx);
      if (!(await claimEvent(sql, SMS_SCHEMA, STATUS_CONSUMER, envelope.id))) return 'duplicate';
      const message = await tx.message.findUnique({ where: { id: status.messageId } });
      if (!message || message.accountId !== status.accountId) {
        logger.warn('status for unknown message', { messageId: status.messageId });
        return 'unknown-message';
      }
      const current = isSmsState(message.status) ? message.status : 'accepted';
      if (!advances(current, status.state)) return 'stale';

      const at = new Date(status.at);
      const final = isFinal(status.state);
      const smscMessageIds =
        status.smscMessageIds.length > 0 ? status.smscMessageIds : message.smscMessageIds;
      await tx.message.update({
        where: { id: message.id },
        data: {
          status: status.state,
          smscMessageIds,
          ...(status.state === 'submitted' && { submittedAt: at }),
          ...(final && { completedAt: at }),
          ...(status.error && { error: status.error }),
        },
      });

      const url =
        message.callbackUrl ?? accountById(message.accountId)?.callbacks.deliveryReportUrl ?? null;
      if (url && isClientUrl(url)) {
        const callback = statusCallback(
          url,
          message.accountId,
          {
            messageId: message.id,
            status: status.state,
            smscMessageIds,
            parts: message.parts,
            at: at.toISOString(),
            ...(status.error && { error: status.error }),
          },
          envelope.traceId,
        );
        await enqueueOutbox(sql, SMS_SCHEMA, Topics.callbacks, [callback]);
      }
      return 'applied';
    });
  };
}

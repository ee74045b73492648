import {
  type Bus,
  claimEvent,
  enqueueOutbox,
  type Subscription,
  subscribeToSmsStatus,
} from '@msg/bus';
import {
  type AccountState,
  callbackRequestMessage,
  type EventEnvelope,
  type SmsStatus,
  Topics,
} from '@msg/contracts';
import { withTransaction } from '@msg/db';
import type { Logger } from '@msg/logger';
import type pg from 'pg';
import { REPLYPATH_SCHEMA } from '../schema.js';
import { deliveryReportRequest, reportStatus } from './delivery-report.js';
import { advanceMessageState, isTransactionId, removedMessageTarget } from './report-store.js';

/** Consumer name of the status consumer in processed_event (and its consumer group). */
export const STATUS_CONSUMER = 'replypath-status';

export type StatusOutcome = 'reported' | 'applied' | 'unchanged' | 'duplicate';

export interface StatusConsumerDeps {
  pool: pg.Pool;
  accountById(id: string): AccountState | undefined;
  logger: Logger;
}

/**
 * Applies one sms.status.v1 report about a reply-path message in one transaction: the dedupe
 * claim, the message's new state and, for a message sent with DLR = 1 to an account with a
 * delivery-report URL, the report's callbacks.v1 request through the outbox.
 */
export function createStatusApplier({ pool, accountById }: Omit<StatusConsumerDeps, 'logger'>) {
  return (status: SmsStatus, event: EventEnvelope<SmsStatus>): Promise<StatusOutcome> =>
    withTransaction(pool, async (sql) => {
      if (!(await claimEvent(sql, REPLYPATH_SCHEMA, STATUS_CONSUMER, event.id))) return 'duplicate';
      // No reply-path message has an id that is no uuid (another service's, misrouted).
      if (!isTransactionId(status.messageId)) return 'unchanged';
      const about = { transactionId: status.messageId, accountId: status.accountId };
      const changed = await advanceMessageState(sql, { ...about, state: status.state });
      // A record already removed by its end (VP 0: at once) still gets its final report while
      // the reservation row is kept; its state has nowhere to go.
      const message =
        changed ??
        (reportStatus(status.state) ? await removedMessageTarget(sql, about) : undefined);
      if (!message) return 'unchanged';
      if (!message.deliveryReport) return 'applied';
      const url = accountById(message.accountId)?.callbacks.deliveryReportUrl;
      const request = deliveryReportRequest(url, message, status, event.id);
      if (!request) return 'applied';
      await enqueueOutbox(sql, REPLYPATH_SCHEMA, Topics.callbacks, [
        callbackRequestMessage(request, event.traceId),
      ]);
      return 'reported';
    });
}

/**
 * Follows the reports about messages sent by either reply-path interface (sources `replypath`
 * and `replypath-legacy`: one store, one pool) in the consumer group 'replypath-status'.
 */
export function startStatusConsumer({
  bus,
  logger,
  ...deps
}: StatusConsumerDeps & { bus: Bus }): Promise<Subscription> {
  const log = logger.child({ component: 'replypath-status' });
  const apply = createStatusApplier(deps);
  return subscribeToSmsStatus(bus, {
    owner: ['replypath', 'replypath-legacy'],
    groupId: STATUS_CONSUMER,
    fromBeginning: true,
    handler: async (status, event) => {
      const outcome = await apply(status, event);
      log.debug('status handled', { eventId: event.id, state: status.state, outcome });
    },
  });
}

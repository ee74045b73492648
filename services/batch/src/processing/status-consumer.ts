import { type Bus, type Subscription, subscribeToSmsStatus } from '@msg/bus';
import { Topics } from '@msg/contracts';
import type { Logger } from '@msg/logger';
import type pg from 'pg';
import { applyStatusReport, STATUS_CONSUMER } from './apply-status.js';

export interface StatusConsumerDeps {
  bus: Bus;
  pool: pg.Pool;
  logger: Logger;
  /** BATCH_RETENTION in milliseconds: how long an ended batch is kept. */
  retention: number;
}

/**
 * Follows the sms.status.v1 reports about batch messages (source 'batch') in the consumer group
 * 'batch-status' (replicas share the partitions). Each report is applied exactly once
 * (claimEvent in its transaction); the bus dead-letters reports that break the topic's schema.
 */
export async function startStatusConsumer({
  bus,
  pool,
  logger,
  retention,
}: StatusConsumerDeps): Promise<Subscription> {
  const log = logger.child({ component: 'batch-status-consumer' });
  await bus.ensureTopics([{ topic: Topics.smsStatus }]);
  return subscribeToSmsStatus(bus, {
    owner: 'batch',
    groupId: STATUS_CONSUMER,
    // A new deployment must not miss reports already waiting for it.
    fromBeginning: true,
    handler: async (report, event) => {
      const outcome = await applyStatusReport(pool, event.id, report, retention);
      log.debug('batch sms status handled', { eventId: event.id, state: report.state, outcome });
    },
  });
}

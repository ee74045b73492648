import type { Bus, Subscription } from '@msg/bus';
import { Topics } from '@msg/contracts';
import type { Logger } from '@msg/logger';
import type pg from 'pg';
import { applyStatusReport, STATUS_CONSUMER } from './apply-status.js';
import { parseStatusReport } from './sms-status.js';

export interface StatusConsumerDeps {
  bus: Bus;
  pool: pg.Pool;
  logger: Logger;
  /** BATCH_RETENTION in milliseconds: how long an ended batch is kept. */
  retention: number;
}

/**
 * Follows sms.status.v1 in the consumer group 'batch-status' (replicas share the partitions) and
 * applies the reports about batch messages (source 'batch'); other owners' reports on the same
 * topic are skipped. Each report is applied exactly once (claimEvent in its transaction).
 */
export async function startStatusConsumer({
  bus,
  pool,
  logger,
  retention,
}: StatusConsumerDeps): Promise<Subscription> {
  const log = logger.child({ component: 'batch-status-consumer' });
  await bus.ensureTopics([{ topic: Topics.smsStatus }]);
  return bus.subscribe({
    groupId: STATUS_CONSUMER,
    topics: [Topics.smsStatus],
    // A new deployment must not miss reports already waiting for it.
    fromBeginning: true,
    handler: async ({ value }) => {
      const report = parseStatusReport(value.payload);
      if (!report) {
        // Retrying cannot fix a malformed payload.
        log.warn('malformed sms status skipped', { eventId: value.id });
        return;
      }
      if (report.source !== 'batch') return;
      const outcome = await applyStatusReport(pool, value.id, report, retention);
      log.debug('batch sms status handled', { eventId: value.id, state: report.state, outcome });
    },
  });
}

import { type Bus, type Subscription, subscribeToSmsStatus } from '@msg/bus';
import type { SmsStatus } from '@msg/contracts';
import { Topics } from '@msg/contracts';
import { createGroupCommit } from '@msg/db';
import type { Logger } from '@msg/logger';
import type pg from 'pg';
import { Counter, type Registry } from 'prom-client';
import { applyStatusReports, STATUS_CONSUMER, type StatusOutcome } from './apply-status.js';

export interface StatusConsumerDeps {
  bus: Bus;
  pool: pg.Pool;
  logger: Logger;
  /** Where `batch_status_reports_total{outcome}` is registered. */
  metrics: Registry;
  /** BATCH_RETENTION in milliseconds: how long an ended batch is kept. */
  retention: number;
}

/**
 * Reports handled at once per partition: they are applied together (group commit), so this is
 * how many a transaction can carry. Each report's offset still moves only after its transaction
 * committed.
 */
const REPORTS_IN_FLIGHT = 500;

/**
 * Follows the sms.status.v1 reports about batch messages (source 'batch') in the consumer group
 * 'batch-status' (replicas share the partitions). A message is decided once, by its first
 * report (a redelivery is 'already-decided'); the bus dead-letters reports that break the
 * topic's schema.
 * Reports arriving while a transaction runs go together in the next one: a million-recipient
 * batch brings its reports at the bind's rate, one transaction each could not keep up.
 */
export async function startStatusConsumer({
  bus,
  pool,
  logger,
  metrics,
  retention,
}: StatusConsumerDeps): Promise<Subscription> {
  const log = logger.child({ component: 'batch-status-consumer' });
  await bus.ensureTopics([{ topic: Topics.smsStatus }]);
  const handled = new Counter({
    name: 'batch_status_reports_total',
    help: 'sms.status.v1 reports about batch messages handled, by outcome (applied, already-decided, unknown-message).',
    labelNames: ['outcome'] as const,
    registers: [metrics],
  });
  const group = createGroupCommit<SmsStatus, StatusOutcome>(
    pool,
    (client, reports) => applyStatusReports(client, reports, retention),
    { maxBatch: REPORTS_IN_FLIGHT },
  );
  return subscribeToSmsStatus(bus, {
    owner: 'batch',
    groupId: STATUS_CONSUMER,
    // A new deployment must not miss reports already waiting for it.
    fromBeginning: true,
    concurrency: REPORTS_IN_FLIGHT,
    // Reports about different messages are independent; one message's reports are ordered by
    // key (its id) and decided by the first that arrives.
    handler: async (report, event) => {
      const outcome = await group.add(report);
      handled.inc({ outcome });
      log.debug('batch sms status handled', { eventId: event.id, state: report.state, outcome });
    },
  });
}

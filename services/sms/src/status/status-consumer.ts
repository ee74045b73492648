import { type Bus, type Subscription, subscribeToSmsStatus } from '@msg/bus';
import type { Logger } from '@msg/logger';
import { Counter, type Registry } from 'prom-client';
import { type ApplyStatusDeps, createStatusApplier, STATUS_CONSUMER } from './apply-status.js';

export interface StatusConsumerOptions extends ApplyStatusDeps {
  bus: Bus;
  logger: Logger;
  metrics: Registry;
}

/**
 * Reports handled at once per partition. They are keyed by message id and the bus never runs two
 * of one key at once, so this only lets reports about different messages share a transaction
 * (see createStatusApplier).
 */
const STATUS_CONCURRENCY = 64;

/**
 * Follows the sms.status.v1 reports about messages this service owns (source 'sms') in the
 * consumer group 'sms-status' (replicas share the partitions); the bus checks each against the
 * topic's schema and dead-letters the malformed ones. `sms_status_reports_total{outcome}` counts
 * them once applied or passed over: a growing 'unknown-message' count means reports about
 * messages this database does not have.
 */
export async function startStatusConsumer({
  bus,
  logger,
  metrics,
  ...deps
}: StatusConsumerOptions): Promise<Subscription> {
  const log = logger.child({ component: 'status-consumer' });
  const applyStatus = createStatusApplier({ ...deps, logger: log });
  const reports = new Counter({
    name: 'sms_status_reports_total',
    help: 'sms.status.v1 reports handled, by outcome (applied, stale: no step forward, unknown-message).',
    labelNames: ['outcome'] as const,
    registers: [metrics],
  });
  return subscribeToSmsStatus(bus, {
    owner: 'sms',
    groupId: STATUS_CONSUMER,
    // A new deployment must not miss reports already waiting for it.
    fromBeginning: true,
    concurrency: STATUS_CONCURRENCY,
    handler: async (status, event) => {
      const outcome = await applyStatus(event, status);
      reports.inc({ outcome });
      log.debug('sms status handled', {
        eventId: event.id,
        messageId: status.messageId,
        state: status.state,
        outcome,
      });
    },
  });
}

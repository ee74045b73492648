import type { Bus, Subscription } from '@msg/bus';
import { Topics } from '@msg/contracts';
import type { Logger } from '@msg/logger';
import { type ApplyStatusDeps, createStatusApplier, STATUS_CONSUMER } from './apply-status.js';
import { parseSmsStatus } from './sms-status-event.js';

export interface StatusConsumerOptions extends ApplyStatusDeps {
  bus: Bus;
  logger: Logger;
}

/**
 * Follows sms.status.v1 in the consumer group 'sms-status' (replicas share the partitions) and
 * applies the reports about messages this service owns (source 'sms'); the other owners' reports
 * on the same topic are skipped.
 */
export async function startStatusConsumer({
  bus,
  logger,
  ...deps
}: StatusConsumerOptions): Promise<Subscription> {
  const log = logger.child({ component: 'status-consumer' });
  const applyStatus = createStatusApplier({ ...deps, logger: log });
  return bus.subscribe({
    groupId: STATUS_CONSUMER,
    topics: [Topics.smsStatus],
    // A new deployment must not miss reports already waiting for it.
    fromBeginning: true,
    handler: async ({ value }) => {
      const status = parseSmsStatus(value.payload);
      if (!status) {
        // Retrying cannot fix a malformed payload; dead-lettering would only add noise.
        log.warn('malformed sms status skipped', { eventId: value.id });
        return;
      }
      if (status.source !== 'sms') return;
      const outcome = await applyStatus(value, status);
      log.debug('sms status handled', {
        eventId: value.id,
        messageId: status.messageId,
        state: status.state,
        outcome,
      });
    },
  });
}

import { type Bus, type Subscription, subscribeToSmsInbound } from '@msg/bus';
import {
  createInboundReceiver,
  INBOUND_CONSUMER,
  type ReceiveInboundDeps,
} from './receive-inbound.js';
import { isPoolNumber } from './reply-store.js';

/**
 * Follows sms.inbound.v1 in the consumer group 'replypath-inbound' and handles what was sent to
 * a pool number (other numbers belong to other services). The event is keyed by the destination
 * number and the bus runs one event of a key at a time, so replies to one number apply in order.
 * The connector acknowledged the SMS to the SMSC once it had stored the event (its outbox); here
 * the offset moves on only after the reply's transaction committed.
 */
export function startInboundConsumer({
  bus,
  ...deps
}: ReceiveInboundDeps & { bus: Bus }): Promise<Subscription> {
  const receive = createInboundReceiver({
    ...deps,
    logger: deps.logger.child({ component: 'replypath-inbound' }),
  });
  return subscribeToSmsInbound(bus, {
    groupId: INBOUND_CONSUMER,
    fromBeginning: true,
    owns: (to) => isPoolNumber(deps.pool, to),
    handler: async (inbound, event) => void (await receive(inbound, event)),
  });
}

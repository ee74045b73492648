export { DeadLetterHeader } from './dead-letter.js';
export {
  type EventSubscribeOptions,
  type SmsInboundSubscribeOptions,
  type SmsStatusSubscribeOptions,
  subscribeToEvents,
  subscribeToSmsInbound,
  subscribeToSmsStatus,
} from './event-subscribers.js';
export { type EventSchemaLookup, InvalidEventError } from './event-validation.js';
export {
  createInProcessBus,
  type InProcessBus,
  type InProcessBusOptions,
} from './in-process-bus.js';
export { createKafkaBus, type KafkaBusOptions } from './kafka-bus.js';
export { claimEvent } from './outbox/claim-event.js';
export {
  enqueueOutbox,
  outboxChannel,
  outboxInsert,
  outboxNotify,
  type SqlPart,
} from './outbox/enqueue.js';
export { OUTBOX_MIGRATIONS_DIR } from './outbox/migration.js';
export { createOutboxRelay, type OutboxRelay, type OutboxRelayOptions } from './outbox/relay.js';
export type { ServiceRuntime } from './runtime.js';
export type {
  Bus,
  BusMessage,
  ConsumedMessage,
  HandlerRetryOptions,
  SubscribeOptions,
  Subscription,
  TopicSpec,
} from './types.js';

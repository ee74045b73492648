import {
  type ContractTopic,
  SMS_SOURCE_HEADER,
  type SmsInbound,
  type SmsSource,
  type SmsStatus,
  type TopicEvent,
  Topics,
} from '@msg/contracts';
import type { Bus, ConsumedMessage, SubscribeOptions, Subscription } from './types.js';

type Common = Omit<SubscribeOptions, 'topics' | 'handler'>;

export interface EventSubscribeOptions<T extends ContractTopic> extends Common {
  topic: T;
  /** Gets only events that follow the topic's schema; the bus dead-letters the others. */
  handler(event: TopicEvent<T>, msg: ConsumedMessage): Promise<void>;
}

/** Subscribes to one topic with a contract and hands the handler its events typed. */
export function subscribeToEvents<T extends ContractTopic>(
  bus: Bus,
  { topic, handler, ...options }: EventSubscribeOptions<T>,
): Promise<Subscription> {
  return bus.subscribe({
    ...options,
    topics: [topic],
    // Both buses hand over only events their topic's schema parsed (checkedEvent, with defaults
    // filled in); parsing each a second time here cost a zod run per event per consumer group.
    handler: (msg) => handler(msg.value as TopicEvent<T>, msg),
  });
}

export interface SmsStatusSubscribeOptions extends Common {
  /** The service whose messages' reports to receive (their `source`); several for a service that owns more than one source. */
  owner: SmsSource | readonly SmsSource[];
  handler(status: SmsStatus, event: TopicEvent<typeof Topics.smsStatus>): Promise<void>;
}

/**
 * The status reports (sms.status.v1) about the messages one service sent: every owner's reports
 * share the topic, and the others' are passed over here, not in each service.
 */
export function subscribeToSmsStatus(
  bus: Bus,
  { owner, handler, ...options }: SmsStatusSubscribeOptions,
): Promise<Subscription> {
  const owners: readonly string[] = typeof owner === 'string' ? [owner] : owner;
  return subscribeToEvents(bus, {
    ...options,
    topic: Topics.smsStatus,
    // Another owner's report, told by its header: not even decoded. Without the header (events
    // written before it existed) the payload's source decides below.
    skip: (headers) => {
      const source = headers[SMS_SOURCE_HEADER];
      return source !== undefined && !owners.includes(source);
    },
    handler: async (event) => {
      if (owners.includes(event.payload.source)) await handler(event.payload, event);
    },
  });
}

export interface SmsInboundSubscribeOptions extends Common {
  /**
   * Whether the destination number is one of the service's: inbound SMS carry no owner, the
   * number they were sent to is what says whose they are.
   */
  owns(to: string): boolean | Promise<boolean>;
  handler(inbound: SmsInbound, event: TopicEvent<typeof Topics.smsInbound>): Promise<void>;
}

/** The inbound SMS (sms.inbound.v1) sent to the numbers of one service. */
export function subscribeToSmsInbound(
  bus: Bus,
  { owns, handler, ...options }: SmsInboundSubscribeOptions,
): Promise<Subscription> {
  return subscribeToEvents(bus, {
    ...options,
    topic: Topics.smsInbound,
    handler: async (event) => {
      if (await owns(event.payload.to)) await handler(event.payload, event);
    },
  });
}

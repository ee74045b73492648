import type { z } from 'zod';
import { ACCOUNT_STATE_EVENT, accountStateSchema } from './accounts.js';
import { BATCH_EVENT, batchDomainEventSchema } from './batch-events.js';
import {
  CALLBACK_DEAD_LETTER_EVENT,
  CALLBACK_REQUEST_EVENT,
  callbackDeadLetterSchema,
  callbackRequestSchema,
} from './callbacks.js';
import { envelopeSchema } from './envelope.js';
import { OPT_OUT_EVENT, optOutChangeSchema } from './opt-outs.js';
import { PROTECTED_SENDERS_EVENT, protectedSendersSchema } from './protected-senders.js';
import { RCS_EVENT, RCS_OUTBOUND_EVENT, rcsDomainEventSchema, rcsOutboundSchema } from './rcs.js';
import {
  SMS_INBOUND_EVENT,
  SMS_OUTBOUND_EVENT,
  SMS_SOURCE_HEADER,
  SMS_STATUS_EVENT,
  smsInboundSchema,
  smsOutboundSchema,
  smsStatusSchema,
} from './sms.js';
import { Topics } from './topics.js';

/**
 * What the AsyncAPI document says about a topic besides its schema. Who produces and consumes it
 * is not written here: the services' definitions declare it, and the document is generated from
 * those declarations (infra/suite, gen:asyncapi).
 */
export interface TopicDescription {
  summary: string;
  /** What the message key is; messages with one key stay in order. */
  key: string;
  /** Who reads it outside the platform's services, for a topic no service consumes. */
  readOutside?: string;
  compacted?: boolean;
  /** Kafka headers every record carries, by name: what each holds. */
  headers?: Record<string, string>;
}

function topicContract<Schema extends z.ZodType>(description: TopicDescription, schema: Schema) {
  return { ...description, schema };
}

/**
 * The contract of every topic that carries events: its runtime schema (envelope and payload) and
 * what the AsyncAPI document says about it. The bus checks every event against it on publish
 * and on consume. deadletter.v1 holds whatever could not be handled, as it was, so it has none.
 */
export const eventContracts = {
  [Topics.accounts]: topicContract(
    {
      summary: 'The whole current state of every account (compacted: the latest per account).',
      key: 'account id',
      compacted: true,
    },
    envelopeSchema([ACCOUNT_STATE_EVENT], accountStateSchema),
  ),
  [Topics.smsOutbound]: topicContract(
    {
      summary: 'An SMS to submit to the SMS centre.',
      key: 'account id (per-account order and throughput)',
    },
    envelopeSchema([SMS_OUTBOUND_EVENT], smsOutboundSchema),
  ),
  [Topics.smsStatus]: topicContract(
    {
      summary:
        'Submit results and delivery receipts; each owner reads the ones whose `source` is itself.',
      key: 'message id',
      headers: {
        [SMS_SOURCE_HEADER]:
          "the payload's `source`: consumers pass over other owners' reports without decoding them",
      },
    },
    envelopeSchema([SMS_STATUS_EVENT], smsStatusSchema),
  ),
  [Topics.smsInbound]: topicContract(
    {
      summary: 'SMS received from the network.',
      key: 'destination number',
    },
    envelopeSchema([SMS_INBOUND_EVENT], smsInboundSchema),
  ),
  [Topics.batchEvents]: topicContract(
    {
      summary:
        "What happened to a batch that has a callback URL; `event` is the batch API's BatchEvent.",
      key: 'batch id',
    },
    envelopeSchema([BATCH_EVENT], batchDomainEventSchema),
  ),
  [Topics.callbacks]: topicContract(
    {
      summary: 'An HTTP callback for the notifier to deliver, with retries.',
      key: "the target URL's origin",
    },
    envelopeSchema([CALLBACK_REQUEST_EVENT], callbackRequestSchema),
  ),
  [Topics.callbacksDlq]: topicContract(
    {
      summary: 'A callback the notifier gave up on, with its attempts and last error.',
      key: "the target URL's origin",
      readOutside: 'operators, who inspect and replay what the notifier gave up on',
    },
    envelopeSchema([CALLBACK_DEAD_LETTER_EVENT], callbackDeadLetterSchema),
  ),
  [Topics.optOuts]: topicContract(
    {
      summary:
        "Whether a recipient opted out of an account's messages (compacted: the latest per key).",
      key: '`<account id>:<msisdn>`',
      compacted: true,
    },
    envelopeSchema([OPT_OUT_EVENT], optOutChangeSchema),
  ),
  [Topics.protectedSenders]: topicContract(
    {
      summary:
        "The operator's protected sender names (banks, authorities): no account sends as one, or as a look-alike, unless it is registered to it. Each event holds the whole list (compacted: the latest).",
      key: '`protected-senders`, the only key',
      compacted: true,
    },
    envelopeSchema([PROTECTED_SENDERS_EVENT], protectedSendersSchema),
  ),
  [Topics.rcsEvents]: topicContract(
    {
      summary:
        "An RCS event (spec 2.5's event table, 6.3) for the agent's webhooks; `event` is the body delivered. rcs reads its own events back: its webhook fan-out writes one callbacks.v1 request per matching webhook.",
      key: 'agent id',
    },
    envelopeSchema([RCS_EVENT], rcsDomainEventSchema),
  ),
  [Topics.rcsOutbound]: topicContract(
    {
      summary: 'An RCS message accepted by POST /rcs/v1/messages, to send through RBM.',
      key: 'agent id (per-agent order and throughput)',
    },
    envelopeSchema([RCS_OUTBOUND_EVENT], rcsOutboundSchema),
  ),
};

export type ContractTopic = keyof typeof eventContracts;

/** An event of `topic` as a consumer sees it once the bus checked it. */
export type TopicEvent<T extends ContractTopic> = z.output<(typeof eventContracts)[T]['schema']>;

/** The payload of an event of `topic`. */
export type TopicPayload<T extends ContractTopic> = TopicEvent<T>['payload'];

export function isContractTopic(topic: string): topic is ContractTopic {
  return Object.hasOwn(eventContracts, topic);
}

/** The schema the events of `topic` must follow, or undefined for a topic without a contract. */
export function eventSchemaOf(topic: string): z.ZodType | undefined {
  return isContractTopic(topic) ? eventContracts[topic].schema : undefined;
}

import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { type ContractTopic, eventContracts } from './event-contracts.js';
import { exampleEvents } from './event-examples.js';
import { Topics } from './topics.js';

/** Absolute path of the AsyncAPI document of the Kafka topics, shipped beside the OpenAPI ones. */
export function asyncapiDocumentPath(): string {
  return fileURLToPath(new URL('../asyncapi/events.yaml', import.meta.url));
}

/** The Topics key of a topic (`smsStatus` for sms.status.v1): a channel id without dots. */
function channelId(topic: ContractTopic): string {
  const entry = Object.entries(Topics).find(([, name]) => name === topic);
  if (!entry) throw new Error(`no Topics entry for ${topic}`);
  return entry[0];
}

/**
 * JSON Schema of what a producer must write: the schemas' input side, so defaults (the envelope's
 * schemaVersion) are optional and transforms (unknown permissions dropped) are not shown.
 */
export function eventJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, {
    io: 'input',
    target: 'draft-7',
    // zod spells out its date-time check as a long pattern; the format says the same to a reader.
    override: ({ jsonSchema }) => {
      if (jsonSchema.format === 'date-time') delete jsonSchema.pattern;
    },
  });
  return json;
}

/** The Kafka headers of a topic's records as the schema AsyncAPI's message `headers` takes. */
function headersSchema(headers: Record<string, string>): Record<string, unknown> {
  const properties = Object.fromEntries(
    Object.entries(headers).map(([name, description]) => [name, { type: 'string', description }]),
  );
  return { type: 'object', properties, required: Object.keys(headers) };
}

/**
 * The AsyncAPI 3 document of every topic in `eventContracts`, built from the same zod schemas
 * the bus enforces. `asyncapi/events.yaml` is this, written by the `gen:asyncapi` script and
 * compared by `check:gen` and the unit tests.
 */
export function buildAsyncApiDocument(): Record<string, unknown> {
  const channels: Record<string, unknown> = {};
  const operations: Record<string, unknown> = {};
  const messages: Record<string, unknown> = {};
  for (const topic of Object.keys(eventContracts) as ContractTopic[]) {
    const contract = eventContracts[topic];
    const id = channelId(topic);
    const message = `${id}Event`;
    messages[message] = {
      name: message,
      title: `${topic} event`,
      contentType: 'application/json',
      payload: eventJsonSchema(contract.schema),
      examples: [{ name: 'example', payload: exampleEvents[topic] }],
      bindings: { kafka: { key: { type: 'string', description: contract.key } } },
      ...(contract.headers && { headers: headersSchema(contract.headers) }),
    };
    channels[id] = {
      address: topic,
      title: topic,
      summary: contract.summary,
      description: [
        `Key: ${contract.key}.`,
        `Producers: ${contract.producers.join(', ')}.`,
        `Consumers: ${contract.consumers.join(', ')}.`,
      ].join(' '),
      messages: { [message]: { $ref: `#/components/messages/${message}` } },
      ...(contract.compacted && {
        bindings: { kafka: { topicConfiguration: { 'cleanup.policy': ['compact'] } } },
      }),
    };
    operations[`publish${id[0]?.toUpperCase()}${id.slice(1)}`] = {
      action: 'send',
      channel: { $ref: `#/channels/${id}` },
      summary: `${contract.producers.join(', ')} publish on ${topic}.`,
      messages: [{ $ref: `#/channels/${id}/messages/${message}` }],
    };
  }
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Messaging platform events',
      version: '1.0.0',
      description: [
        'The Kafka topics the services of the messaging platform talk over. Every event has the',
        'same envelope (id, type, schemaVersion, occurredAt, traceId, accountId) around a',
        'payload; the bus checks both against these schemas when it publishes and when it',
        'consumes, and sends events that fail to deadletter.v1. Topic names are wire names.',
        'Generated from the zod schemas in @msg/contracts; do not edit by hand.',
      ].join('\n'),
    },
    defaultContentType: 'application/json',
    servers: {
      kafka: {
        host: 'localhost:9092',
        protocol: 'kafka',
        description: 'The brokers are deployment settings (KAFKA_BROKERS).',
      },
    },
    channels,
    operations,
    components: { messages },
  };
}

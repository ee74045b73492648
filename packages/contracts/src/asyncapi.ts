import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { z } from 'zod';
import { type ContractTopic, eventContracts } from './event-contracts.js';
import { exampleEvents } from './event-examples.js';
import { Topics } from './topics.js';

/** Absolute path of the AsyncAPI document of the Kafka topics, shipped beside the OpenAPI ones. */
export function asyncapiDocumentPath(): string {
  return fileURLToPath(new URL('../asyncapi/events.yaml', import.meta.url));
}

/** One consumer of a topic: the service and what its consumer group is. */
export interface TopicConsumer {
  service: string;
  group: string;
}

/** Who writes and who reads one topic, as the services' definitions declare it. */
export interface TopicEnds {
  producers: readonly string[];
  consumers: readonly TopicConsumer[];
}

/**
 * The producers and consumers of every topic: built from the services' definitions
 * (topicGraph of @msg/service-kit), which this package may not import.
 */
export type TopicGraph = ReadonlyMap<ContractTopic, TopicEnds>;

/** `smsc-connector` as the start of an operation id: `smscConnector`. */
function camel(name: string): string {
  return name.replace(/-(.)/g, (_, letter: string) => letter.toUpperCase());
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
 * the bus enforces, with a `send` operation per producer and a `receive` operation per consumer
 * from `graph`. `asyncapi/events.yaml` is this, written by the `gen:asyncapi` script of
 * infra/suite (which may import every service) and compared by its `check:gen` and unit tests.
 */
export function buildAsyncApiDocument(graph: TopicGraph): Record<string, unknown> {
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
        ...(contract.readOutside ? [`Read outside the services by ${contract.readOutside}.`] : []),
      ].join(' '),
      messages: { [message]: { $ref: `#/components/messages/${message}` } },
      ...(contract.compacted && {
        bindings: { kafka: { topicConfiguration: { 'cleanup.policy': ['compact'] } } },
      }),
    };
    const operation = (action: 'send' | 'receive', service: string, summary: string) => {
      const verb = action === 'send' ? 'Sends' : 'Receives';
      const operationId = `${camel(service)}${verb}${id[0]?.toUpperCase()}${id.slice(1)}`;
      if (operationId in operations) throw new Error(`${service} is listed twice on ${topic}`);
      operations[operationId] = {
        action,
        channel: { $ref: `#/channels/${id}` },
        summary,
        messages: [{ $ref: `#/channels/${id}/messages/${message}` }],
      };
    };
    const ends = graph.get(topic);
    for (const service of ends?.producers ?? []) {
      operation('send', service, `${service} publishes on ${topic}.`);
    }
    for (const { service, group } of ends?.consumers ?? []) {
      operation('receive', service, `${service} reads ${topic}; consumer group: ${group}.`);
    }
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
        'Generated from the zod schemas in @msg/contracts and, for the send and receive',
        "operations, from what each service's definition declares; do not edit by hand.",
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

/** The document as `asyncapi/events.yaml` holds it. */
export function asyncapiYaml(graph: TopicGraph): string {
  return stringify(buildAsyncApiDocument(graph), { lineWidth: 100 });
}

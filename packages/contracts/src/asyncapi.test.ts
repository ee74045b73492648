import { readFileSync } from 'node:fs';
import { Parser } from '@asyncapi/parser';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { asyncapiDocumentPath, buildAsyncApiDocument } from './asyncapi.js';
import { type ContractTopic, eventContracts } from './event-contracts.js';
import { exampleEvents } from './event-examples.js';

interface Document {
  asyncapi: string;
  operations: Record<string, unknown>;
  channels: Record<string, { address: string; messages: Record<string, { $ref: string }> }>;
  components: { messages: Record<string, { payload: object }> };
}

const committed = parse(readFileSync(asyncapiDocumentPath(), 'utf8')) as Document;
const topics = Object.keys(eventContracts) as ContractTopic[];

/** The payload JSON Schema the committed document gives for the events of `topic`. */
function documentedPayload(topic: string): object {
  const channel = Object.values(committed.channels).find((c) => c.address === topic);
  const ref = Object.values(channel?.messages ?? {})[0]?.$ref ?? '';
  const message = committed.components.messages[ref.split('/').at(-1) ?? ''];
  if (!message) throw new Error(`the document has no message for ${topic}`);
  return message.payload;
}

describe('asyncapi/events.yaml', () => {
  // The operations come from the services' definitions: infra/suite compares the whole document.
  it('when compared with the zod schemas, then it is what they generate (run gen:asyncapi otherwise)', () => {
    const { operations: _fromServices, ...generated } = buildAsyncApiDocument(new Map());
    const { operations: _committed, ...schemas } = committed;
    expect(schemas).toEqual(JSON.parse(JSON.stringify(generated)));
    expect(committed.asyncapi).toBe('3.0.0');
  });

  it('when the AsyncAPI parser reads it, then it is a valid AsyncAPI 3 document without errors', async () => {
    const diagnostics = await new Parser().validate(readFileSync(asyncapiDocumentPath(), 'utf8'));
    // Severity 0 is an error; warnings and hints are style advice.
    expect(diagnostics.filter((d) => d.severity === 0).map((d) => d.message)).toEqual([]);
  });

  it('when listing its channels, then there is one per topic with a contract', () => {
    const addresses = Object.values(committed.channels).map((c) => c.address);
    expect(addresses.sort()).toEqual([...topics].sort());
  });

  // The document's JSON Schema, read by a JSON Schema validator and not by zod, must agree with
  // zod on what a producer may write.
  describe.each(topics)('%s', (topic) => {
    const validate = new Ajv({ strict: false, validateFormats: false }).compile(
      documentedPayload(topic),
    );
    const schema = eventContracts[topic].schema;
    const example = exampleEvents[topic];

    it('when an event is well formed, then the document and zod both accept it', () => {
      expect(validate(example)).toBe(true);
      expect(schema.safeParse(example).success).toBe(true);
    });

    it('when its payload lacks a member or its type is unknown, then both refuse it', () => {
      const payload: Record<string, unknown> = { ...example.payload };
      delete payload[Object.keys(payload)[0] as string];
      for (const broken of [
        { ...example, payload },
        { ...example, type: 'other' },
      ]) {
        expect(validate(broken)).toBe(false);
        expect(schema.safeParse(broken).success).toBe(false);
      }
    });
  });
});

import { describe, expect, it } from 'vitest';
import { type ContractTopic, eventContracts, eventSchemaOf } from './event-contracts.js';
import { exampleEvents } from './event-examples.js';
import { Topics } from './topics.js';

const topics = Object.keys(eventContracts) as ContractTopic[];

/** A copy of `value` with the member at `path` set to `to` (undefined removes it). */
function withMember(value: unknown, path: string[], to: unknown): unknown {
  const copy = structuredClone(value) as Record<string, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>;
  const last = path.at(-1) as string;
  if (to === undefined) delete node[last];
  else node[last] = to;
  return copy;
}

describe('event contracts', () => {
  it('when a topic carries events, then it has a contract (rcs and voice come with their services)', () => {
    const withoutContract = Object.values(Topics).filter((topic) => !eventSchemaOf(topic));
    expect(withoutContract.sort()).toEqual(
      [Topics.deadLetter, Topics.rcsEvents, Topics.voiceEvents].sort(),
    );
  });

  describe.each(topics)('%s', (topic) => {
    const { schema } = eventContracts[topic];
    const example = exampleEvents[topic];

    it('when the event is well formed, then it is accepted as it is', () => {
      expect(schema.parse(example)).toEqual(example);
    });

    it('when it was written before schemaVersion existed, then it reads as version 1', () => {
      expect(schema.parse(withMember(example, ['schemaVersion'], undefined))).toMatchObject({
        schemaVersion: 1,
      });
    });

    it.each([
      ['a schema version this build does not know', ['schemaVersion'], 2],
      ['another event type', ['type'], 'something.else'],
      ['no id', ['id'], undefined],
      ['occurredAt not a time', ['occurredAt'], 'yesterday'],
      ['no payload', ['payload'], undefined],
      ['a payload that is not an object', ['payload'], 'text'],
    ])('when it has %s, then it is refused', (_case, path, to) => {
      expect(schema.safeParse(withMember(example, path, to)).success).toBe(false);
    });

    it('when a payload member is missing, then it is refused', () => {
      const first = Object.keys(example.payload)[0] as string;
      expect(schema.safeParse(withMember(example, ['payload', first], undefined)).success).toBe(
        false,
      );
    });

    it('when a newer producer adds members, then they are dropped, not refused', () => {
      const newer = withMember(withMember(example, ['future'], 1), ['payload', 'future'], 2);
      const parsed = schema.parse(newer) as Record<string, unknown> & { payload: object };
      expect(parsed).not.toHaveProperty('future');
      expect(parsed.payload).not.toHaveProperty('future');
    });
  });

  it.each([
    ['sms.status.v1', ['payload', 'state'], 'accepted'],
    ['sms.status.v1', ['payload', 'source'], 'somebody'],
    ['sms.status.v1', ['payload', 'at'], 'not a time'],
    ['sms.outbound.v1', ['payload', 'parts'], 11],
    ['sms.outbound.v1', ['payload', 'encoding'], 'latin1'],
    ['callbacks.v1', ['payload', 'url'], 'ftp://acme.example/x'],
    ['callbacks.v1', ['payload', 'method'], 'PUT'],
    ['batch.events.v1', ['payload', 'event', 'event_type'], 'batch.exploded'],
    ['batch.events.v1', ['payload', 'callback', 'url'], 'not a url'],
    ['accounts.v1', ['payload', 'status'], 'suspended'],
    ['accounts.v1', ['payload', 'batchMaxRecipients'], -1],
  ] as const)('when %s has %j = %j, then it is refused', (topic, path, to) => {
    const schema = eventContracts[topic].schema;
    expect(schema.safeParse(withMember(exampleEvents[topic], [...path], to)).success).toBe(false);
  });

  it('when an account lists permissions this build does not know, then those are dropped, not the account', () => {
    const event = withMember(
      exampleEvents['accounts.v1'],
      ['payload', 'permissions'],
      ['sms', 'future_thing'],
    );
    expect(eventContracts['accounts.v1'].schema.parse(event).payload.permissions).toEqual(['sms']);
  });
});

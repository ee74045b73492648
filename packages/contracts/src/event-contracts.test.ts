import { describe, expect, it } from 'vitest';
import { batchEventCallback } from './batch-events.js';
import { callbackRequestSchema } from './callbacks.js';
import { type ContractTopic, eventContracts, eventSchemaOf } from './event-contracts.js';
import { exampleEvents } from './event-examples.js';
import { smsStatusSchema } from './sms.js';
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
  it('when a topic carries events, then it has a contract', () => {
    const withoutContract = Object.values(Topics).filter((topic) => !eventSchemaOf(topic));
    expect(withoutContract.sort()).toEqual([Topics.deadLetter]);
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

// What the sms and batch services' own status parsers checked before the schema replaced them.
describe('sms.status.v1 payload', () => {
  const status = {
    messageId: 'm1',
    accountId: 'a1',
    source: 'sms',
    state: 'delivered',
    smscMessageIds: ['x'],
    parts: 1,
    at: '2026-11-22T10:00:00.000Z',
  };

  it('when the payload is a status report, then it is read with its error (unknown members dropped)', () => {
    const error = { description: 'expired', receiptStat: 'EXPIRED', extra: 1 };
    expect(smsStatusSchema.parse({ ...status, error })).toEqual({
      ...status,
      error: { description: 'expired', receiptStat: 'EXPIRED' },
    });
  });

  it.each([
    ['not an object', 'x'],
    ['an accepted state', { ...status, state: 'accepted' }],
    ['an unknown state', { ...status, state: 'queued' }],
    ['an unknown source', { ...status, source: 'voice' }],
    ['no source', { ...status, source: 1 }],
    ['smsc ids that are not strings', { ...status, smscMessageIds: [1] }],
    ['a bad timestamp', { ...status, at: 'yesterday' }],
    ['no message id', { ...status, messageId: undefined }],
  ])('when the payload has %s, then it is refused', (_case, payload) => {
    expect(smsStatusSchema.safeParse(payload).success).toBe(false);
  });
});

describe('batchEventCallback', () => {
  const example = exampleEvents[Topics.batchEvents];

  it('when a batch event has a token, then the callback POSTs the event to the URL with ?token=', () => {
    expect(batchEventCallback(example)).toEqual({
      callbackId: example.id,
      accountId: example.payload.accountId,
      url: 'https://acme.example/batch-events',
      method: 'POST',
      query: { token: 'b4tch-t0ken' },
      body: example.payload.event,
      origin: { service: 'batch', kind: 'batch.submission_completed' },
    });
  });

  it('when it has no token, then the callback has no query', () => {
    const { token: _none, ...callback } = example.payload.callback;
    const callbackRequest = batchEventCallback({
      ...example,
      payload: { ...example.payload, callback },
    });
    expect(callbackRequest).not.toHaveProperty('query');
    expect(callbackRequestSchema.parse(callbackRequest)).toEqual(callbackRequest);
  });
});

// What the notifier's own callback parser checked before the schema replaced it.
describe('callbacks.v1 payload', () => {
  const valid = {
    callbackId: 'cb-1',
    accountId: 'acct-1',
    url: 'https://receiver.example/dlr?token=x',
    method: 'POST',
    body: { a: 1 },
    origin: { service: 'sms', kind: 'status' },
  };

  it('when the payload is a valid request, then it is returned as is', () => {
    expect(callbackRequestSchema.parse(valid)).toEqual(valid);
  });

  it('when giveUpAt is not an ISO time, then it is refused', () => {
    expect(callbackRequestSchema.safeParse({ ...valid, giveUpAt: 'tomorrow' }).success).toBe(false);
  });
});

import { randomUUID } from 'node:crypto';
import { type AccountState, type RcsDomainEvent, Topics } from '@msg/contracts';
import { createPostgresIdempotencyStore } from '@msg/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRcs, type TestRcs } from './support.js';

const AGENT = 'idempotency-agent';

let rcs: TestRcs;
let acct: AccountState;
let other: AccountState;

beforeAll(async () => {
  rcs = await startTestRcs({ perMinute: 10_000 });
  acct = await rcs.publishAccount(rcs.account());
  other = await rcs.publishAccount(rcs.account());
  await rcs.agent(AGENT, [acct, other]);
});

afterAll(async () => {
  await rcs?.stop();
});

/** A send whose client_message_id names the test, so its rows can be counted. */
const body = (clientMessageId: string, overrides: object = {}) => ({
  recipient: '+46701740605',
  agent_id: AGENT,
  message: { text: 'Your order has shipped' },
  client_message_id: clientMessageId,
  ...overrides,
});

function send(account: AccountState, payload: object, key?: string) {
  const req = rcs.send(account, payload);
  return key === undefined ? req : req.set('Idempotency-Key', key);
}

/** Rows in rcs.messages of `account` with this client_message_id. */
async function storedMessages(account: AccountState, clientMessageId: string): Promise<string[]> {
  const { rows } = await rcs.pool.query<{ id: string }>(
    'SELECT id FROM rcs.messages WHERE account_id = $1 AND client_message_id = $2 ORDER BY id',
    [account.id, clientMessageId],
  );
  return rows.map((row) => row.id);
}

/**
 * What was published on `topic` about `messageId`, once a later keyless send of the same agent
 * (same partition key, so published after it) has been published: nothing more can follow.
 */
async function settledEventsAbout(topic: string, messageId: string, dryRun = false) {
  const barrier = await send(acct, body(`barrier-${randomUUID()}`, { dry_run: dryRun }));
  expect(barrier.status).toBe(202);
  await rcs.publishedAbout(topic, barrier.body.message_id);
  return rcs.published.filter(
    (p) => p.topic === topic && (p.value.payload as { messageId?: string }).messageId === messageId,
  );
}

describe('POST /rcs/v1/messages with Idempotency-Key', () => {
  it('when the same send is retried with one key, then the first 202 is replayed: one message row, one rcs.outbound.v1 event', async () => {
    const key = randomUUID();
    const cmid = `order-${randomUUID()}`;
    const first = await send(acct, body(cmid), key);
    const again = await send(acct, body(cmid), key);

    expect(first.status, first.text).toBe(202);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(again.status).toBe(202);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(again.body).toEqual({ message_id: first.body.message_id, client_message_id: cmid });
    expect(await storedMessages(acct, cmid)).toEqual([first.body.message_id]);
    const outbound = await settledEventsAbout(Topics.rcsOutbound, first.body.message_id);
    expect(outbound).toHaveLength(1);
  });

  it('when the key comes again with another body, then 422 IDEMPOTENCY_KEY_REUSED in the 7.4 format and nothing is stored', async () => {
    const key = randomUUID();
    const cmid = `order-${randomUUID()}`;
    expect((await send(acct, body(cmid), key)).status).toBe(202);

    const res = await send(acct, body(cmid, { message: { text: 'Something else' } }), key);
    expect(res.status).toBe(422);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    expect(res.body).toEqual({
      code: 'IDEMPOTENCY_KEY_REUSED',
      message: expect.stringContaining('Idempotency-Key'),
      details: {
        errors: [{ loc: ['header', 'Idempotency-Key'], msg: expect.any(String), type: 'reused' }],
      },
    });
    expect(await storedMessages(acct, cmid)).toHaveLength(1);
  });

  it('when a request with the key is still in flight, then 409 IDEMPOTENCY_KEY_IN_USE in the 7.4 format with Retry-After and nothing is stored', async () => {
    const key = randomUUID();
    const cmid = `order-${randomUUID()}`;
    // The first request holds the key, as the middleware does while the send runs.
    const store = createPostgresIdempotencyStore({ pool: rcs.pool, schema: 'rcs' });
    const held = await store.claim(
      { scope: acct.id, method: 'POST', path: '/rcs/v1/messages', key },
      null,
    );
    expect(held.state).toBe('claimed');

    const res = await send(acct, body(cmid), key);
    expect(res.status).toBe(409);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.body).toEqual({
      code: 'IDEMPOTENCY_KEY_IN_USE',
      message: expect.stringContaining('Idempotency-Key'),
      details: {
        errors: [{ loc: ['header', 'Idempotency-Key'], msg: expect.any(String), type: 'inFlight' }],
      },
    });
    expect(await storedMessages(acct, cmid)).toEqual([]);
  });

  it('when another account uses the same key, then it is independent: its own message, and no 422 for its other body', async () => {
    const key = randomUUID();
    const cmid = `order-${randomUUID()}`;
    const mine = await send(acct, body(cmid), key);
    const theirs = await send(other, body(cmid, { message: { text: 'Other text' } }), key);

    expect([mine.status, theirs.status]).toEqual([202, 202]);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.body.message_id).not.toBe(mine.body.message_id);
    expect(await storedMessages(acct, cmid)).toEqual([mine.body.message_id]);
    expect(await storedMessages(other, cmid)).toEqual([theirs.body.message_id]);
    // The key is still the first account's: its retry replays its own answer.
    const again = await send(acct, body(cmid), key);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.message_id).toBe(mine.body.message_id);
  });

  it('when a dry run is retried with one key, then the same 202 and exactly one test.rcs.out.delivered', async () => {
    const key = randomUUID();
    const cmid = `dry-${randomUUID()}`;
    const first = await send(acct, body(cmid, { dry_run: true }), key);
    const again = await send(acct, body(cmid, { dry_run: true }), key);

    expect(first.status, first.text).toBe(202);
    expect(again.status).toBe(202);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    const { rows } = await rcs.pool.query<{ state: string }>(
      'SELECT state FROM rcs.messages WHERE account_id = $1 AND client_message_id = $2',
      [acct.id, cmid],
    );
    expect(rows).toEqual([{ state: 'simulated' }]);
    const events = await settledEventsAbout(Topics.rcsEvents, first.body.message_id, true);
    expect(events.map((e) => (e.value.payload as RcsDomainEvent).event.event_type)).toEqual([
      'test.rcs.out.delivered',
    ]);
    expect(await settledEventsAbout(Topics.rcsOutbound, first.body.message_id)).toEqual([]);
  });

  it('when the same key is used for the dry run and then the real send, then 422: a key is one request', async () => {
    const key = randomUUID();
    const cmid = `dry-${randomUUID()}`;
    expect((await send(acct, body(cmid, { dry_run: true }), key)).status).toBe(202);
    const real = await send(acct, body(cmid), key);
    expect(real.status).toBe(422);
    expect(real.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('when no key is sent, then each send is a new message even with the same client_message_id (an echo, not a dedupe key)', async () => {
    const cmid = `order-${randomUUID()}`;
    const first = await send(acct, body(cmid));
    const second = await send(acct, body(cmid));
    expect([first.status, second.status]).toEqual([202, 202]);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(second.body.message_id).not.toBe(first.body.message_id);
    expect(second.body.client_message_id).toBe(cmid);
    expect(await storedMessages(acct, cmid)).toHaveLength(2);
  });

  it.each([
    ['empty', ''],
    ['longer than 255 characters', 'k'.repeat(256)],
    ['not printable ASCII', 'nyckel-å'],
  ])(
    'when the key is %s, then 400 VALIDATION_ERROR naming the header and nothing is stored',
    async (_case, key) => {
      const cmid = `order-${randomUUID()}`;
      const res = await send(acct, body(cmid), key);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(res.body.message).toBe('Request validation failed');
      expect(res.body.details.errors).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ loc: ['header', expect.stringMatching(/^idempotency-key$/i)] }),
        ]),
      );
      expect(await storedMessages(acct, cmid)).toEqual([]);
    },
  );

  it('when the first request broke a body rule (400 by the document), then the key is not kept and the corrected send goes through', async () => {
    const key = randomUUID();
    const cmid = `order-${randomUUID()}`;
    const refused = await send(acct, body(cmid, { recipient: '46701740605' }), key);
    expect(refused.status).toBe(400);
    const corrected = await send(acct, body(cmid), key);
    expect(corrected.status).toBe(202);
    expect(corrected.headers['idempotent-replayed']).toBeUndefined();
    expect(await storedMessages(acct, cmid)).toEqual([corrected.body.message_id]);
  });
});

import { type AccountState, Topics } from '@msg/contracts';
import { isOptedOut, optOutMessage } from '@msg/optout';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestSms, type TestSms } from './support.js';

let sms: TestSms;

beforeAll(async () => {
  sms = await startTestSms();
}, 60_000);

afterAll(async () => {
  await sms?.stop();
});

/** The accounts' numeric sender: registered to each (a number is a sender only when it is). */
const NUMBER = '+46700000001';
let recipientCounter = 0;
/** A recipient of its own per test, so the tests' lists never meet. */
const newRecipient = () => {
  recipientCounter += 1;
  return `+4670111${String(recipientCounter).padStart(4, '0')}`;
};
const waitLong = { timeout: 15_000, interval: 50 };

/** Waits until the service's replica has the opt-out, then checks that a send is refused. */
async function refusedSoon(acct: AccountState, to: string, from = NUMBER) {
  await vi.waitFor(
    async () => expect(await isOptedOut(sms.pool, 'sms', acct.id, to)).toBe(true),
    waitLong,
  );
  expect((await sms.send(acct, { to, from, message: 'Offer' })).status).toBe(400);
}

describe('opt-out by inbound SMS to a numeric sender', () => {
  it('when the recipient replies STOP, then the next send to them is refused with 400 naming to and the rule, and nothing is stored', async () => {
    const acct = await sms.publishAccount(sms.account({ senderIds: [NUMBER] }));
    const to = newRecipient();
    expect((await sms.send(acct, { to, from: NUMBER, message: 'Offer' })).status).toBe(202);

    await sms.publishInbound({ from: to, to: NUMBER, text: ' stop ' });
    await refusedSoon(acct, to);

    const res = await sms.send(acct, { to, from: NUMBER, message: 'Offer' });
    expect(res.body).toEqual({
      code: 'RECIPIENT_OPTED_OUT',
      message: expect.stringContaining('body.to'),
      details: [{ loc: ['body', 'to'], msg: expect.any(String), type: 'opted_out' }],
    });
    // Whichever number the account sends from: the list is the account's.
    expect((await sms.send(acct, { to, from: 'Acme', message: 'Offer' })).status).toBe(400);
    const { rows } = await sms.pool.query(
      'SELECT count(*)::int AS n FROM sms.message WHERE account_id = $1 AND recipient = $2',
      [acct.id, to],
    );
    expect(rows[0].n).toBe(1);
    // The change is on optouts.v1 for the other services, keyed by account and recipient.
    await vi.waitFor(() =>
      expect(sms.seen[Topics.optOuts]).toContainEqual(
        expect.objectContaining({
          key: `${acct.id}:${to}`,
          value: expect.objectContaining({
            payload: expect.objectContaining({
              optedOut: true,
              keyword: 'STOP',
              source: 'inbound',
            }),
          }),
        }),
      ),
    );
  });

  it('when the recipient then replies START, then sends go out again', async () => {
    const acct = await sms.publishAccount(sms.account({ senderIds: [NUMBER] }));
    const to = newRecipient();
    await sms.send(acct, { to, from: NUMBER, message: 'Offer' });
    await sms.publishInbound({ from: to, to: NUMBER, text: 'AVSLUTA' });
    await refusedSoon(acct, to);

    await sms.publishInbound({ from: to, to: NUMBER, text: 'Start' });
    await vi.waitFor(
      async () => expect(await isOptedOut(sms.pool, 'sms', acct.id, to)).toBe(false),
      waitLong,
    );
    expect((await sms.send(acct, { to, from: NUMBER, message: 'Offer' })).status).toBe(202);
  });

  it('when another account sends to the opted-out recipient, then it is not refused', async () => {
    const acct = await sms.publishAccount(sms.account({ senderIds: [NUMBER] }));
    const other = await sms.publishAccount(sms.account({ senderIds: [NUMBER] }));
    const to = newRecipient();
    await sms.send(acct, { to, from: NUMBER, message: 'Offer' });
    await sms.publishInbound({ from: to, to: NUMBER, text: 'STOPP' });
    await refusedSoon(acct, to);
    expect((await sms.send(other, { to, from: NUMBER, message: 'Hi' })).status).toBe(202);
  });

  it("when the reply is one of the account's own words, then it opts out; a word of another account does not", async () => {
    const from = '+46700000002';
    const senderIds = [NUMBER, from];
    const acct = await sms.publishAccount(sms.account({ optOutKeywords: ['nej tack'], senderIds }));
    const plain = await sms.publishAccount(sms.account({ senderIds }));
    const to = newRecipient();
    await sms.send(plain, { to, from, message: 'Offer' });
    await sms.publishInbound({ from: to, to: from, text: 'Nej tack!' });
    const to2 = newRecipient();
    await sms.send(acct, { to: to2, from, message: 'Offer' });
    await sms.publishInbound({ from: to2, to: from, text: 'NEJ TACK' });

    await refusedSoon(acct, to2);
    // Handled in order on one partition (key: the platform number): the first reply is done.
    expect((await sms.send(plain, { to, from, message: 'Offer' })).status).toBe(202);
  });

  it('when the reply is not a keyword, or no message of ours reached its sender from that number, then nothing changes', async () => {
    const acct = await sms.publishAccount(sms.account({ senderIds: [NUMBER] }));
    const to = newRecipient();
    await sms.send(acct, { to, from: NUMBER, message: 'Offer' });
    await sms.publishInbound({ from: to, to: NUMBER, text: 'stop sending at night please' });
    const stranger = newRecipient();
    await sms.publishInbound({ from: stranger, to: NUMBER, text: 'STOP' });
    // A marker after both, on the same partition (key: the platform number): once it has taken
    // effect, the two before it were handled.
    await sms.publishInbound({ from: to, to: NUMBER, text: 'UNSUBSCRIBE' });
    await refusedSoon(acct, to);
    expect((await sms.send(acct, { to: stranger, from: NUMBER, message: 'Hi' })).status).toBe(202);
    const changes = (msisdn: string) =>
      sms.seen[Topics.optOuts]?.filter((m) => m.key === `${acct.id}:${msisdn}`) ?? [];
    await vi.waitFor(() => expect(changes(to)).toHaveLength(1));
    expect(changes(to)[0]?.value.payload).toMatchObject({ keyword: 'UNSUBSCRIBE' });
    expect(changes(stranger)).toEqual([]);
  });
});

describe('redelivery', () => {
  it('when the same inbound STOP event arrives twice, then one change is published', async () => {
    const acct = await sms.publishAccount(sms.account({ senderIds: [NUMBER] }));
    const to = newRecipient();
    const marker = newRecipient();
    await sms.send(acct, { to, from: NUMBER, message: 'Offer' });
    await sms.send(acct, { to: marker, from: NUMBER, message: 'Offer' });
    const event = await sms.publishInbound({ from: to, to: NUMBER, text: 'STOP' });
    // The same envelope again (at-least-once delivery), then a marker on the same partition.
    await sms.bus.publish(Topics.smsInbound, [{ key: NUMBER, value: event }]);
    await sms.publishInbound({ from: marker, to: NUMBER, text: 'STOP' });
    await refusedSoon(acct, marker);
    const changes = (msisdn: string) =>
      sms.seen[Topics.optOuts]?.filter((m) => m.key === `${acct.id}:${msisdn}`) ?? [];
    await vi.waitFor(() => expect(changes(marker)).toHaveLength(1));
    expect(changes(to)).toHaveLength(1);
  });
});

describe('opt-out by an operator (optouts.v1 from admin)', () => {
  it('when admin publishes an opt-out, then sends are refused; when it publishes the removal, then allowed again', async () => {
    const acct = await sms.publishAccount(sms.account({ senderIds: [NUMBER] }));
    const to = newRecipient();
    const at = Date.now();
    await sms.bus.publish(Topics.optOuts, [
      optOutMessage({
        accountId: acct.id,
        msisdn: to,
        optedOut: true,
        source: 'operator',
        at: new Date(at).toISOString(),
      }),
    ]);
    await refusedSoon(acct, to);
    await sms.bus.publish(Topics.optOuts, [
      optOutMessage({
        accountId: acct.id,
        msisdn: to,
        optedOut: false,
        source: 'operator',
        at: new Date(at + 1000).toISOString(),
      }),
    ]);
    await vi.waitFor(
      async () => expect(await isOptedOut(sms.pool, 'sms', acct.id, to)).toBe(false),
      waitLong,
    );
    expect((await sms.send(acct, { to, from: NUMBER, message: 'Offer' })).status).toBe(202);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type InboundHarness,
  QUARANTINE_MS,
  startInboundHarness,
  uniqueNumber,
  until,
} from './inbound-support.js';

const MINUTE = 60_000;

let h: InboundHarness;

beforeAll(async () => {
  h = await startInboundHarness();
});

afterAll(async () => {
  await h?.stop();
});

/** The callbacks.v1 requests asked for a transaction's replies. */
const replyRequests = (transactionId: string) =>
  h.requests.filter(
    (r) =>
      r.origin.kind === 'reply' &&
      (r.query?.InResponseTo === transactionId ||
        (r.body as { InResponseTo?: string } | undefined)?.InResponseTo === transactionId),
  );

/** What the receiver got about a transaction (GET query or POST body). */
const delivered = (transactionId: string) =>
  h.receiver.received.filter(
    (r) =>
      r.url.searchParams.get('InResponseTo') === transactionId || r.body.includes(transactionId),
  );

describe('a reply to an active reservation', () => {
  it('when the account calls back by POST, then the reply is stored, linked and POSTed as JSON From, InResponseTo, Msg', async () => {
    const account = h.account({
      replyPathUrl: `${h.receiver.url}/replies`,
      replyPathMethod: 'POST',
    });
    const sent = await h.reserve({ account });

    await h.inbound({ from: sent.recipient, to: sent.number, text: 'Ja, gärna 👍' });

    await until(() => expect(delivered(sent.transactionId)).toHaveLength(1));
    const [call] = delivered(sent.transactionId);
    expect(call?.method).toBe('POST');
    expect(call?.url.pathname).toBe('/replies');
    expect(JSON.parse(call?.body ?? '')).toEqual({
      From: sent.recipient,
      InResponseTo: sent.transactionId,
      Msg: 'Ja, gärna 👍',
    });
    expect(await h.replies(sent.transactionId)).toEqual([
      { from: sent.recipient, text: 'Ja, gärna 👍', forward_state: 'requested' },
    ]);
    // Retried until the end of the reservation, not the notifier's default horizon.
    expect(replyRequests(sent.transactionId)[0]?.giveUpAt).toBe(sent.endsAt.toISOString());
  });

  it('when the account calls back by GET, then Msg and InResponseTo are in the query and there is no body', async () => {
    const account = h.account({
      replyPathUrl: `${h.receiver.url}/in?key=k1`,
      replyPathMethod: 'GET',
    });
    const sent = await h.reserve({ account });

    await h.inbound({ from: sent.recipient, to: sent.number, text: 'Nej & tack' });

    await until(() => expect(delivered(sent.transactionId)).toHaveLength(1));
    const [call] = delivered(sent.transactionId);
    expect(call?.method).toBe('GET');
    expect(call?.url.pathname).toBe('/in');
    expect(Object.fromEntries(call?.url.searchParams ?? [])).toEqual({
      key: 'k1',
      Msg: 'Nej & tack',
      InResponseTo: sent.transactionId,
    });
    expect(call?.body).toBe('');
  });

  it('when a second reply arrives before VP ends (not OneShot), then both are stored and forwarded and the reservation stays active', async () => {
    const account = h.account({ replyPathUrl: `${h.receiver.url}/many` });
    const sent = await h.reserve({ account });

    await h.inbound({ from: sent.recipient, to: sent.number, text: 'first' });
    await until(() => expect(delivered(sent.transactionId)).toHaveLength(1));
    await h.inbound({ from: sent.recipient, to: sent.number, text: 'second' });

    await until(() => expect(delivered(sent.transactionId)).toHaveLength(2));
    expect((await h.replies(sent.transactionId)).map((r) => r.text).sort()).toEqual([
      'first',
      'second',
    ]);
  });

  it('when the account has no reply-path URL, then the reply is stored and not forwarded', async () => {
    const account = h.account({ replyPathUrl: null });
    const sent = await h.reserve({ account });
    const before = await h.inboundCount('stored-without-callback');

    const event = await h.inbound({ from: sent.recipient, to: sent.number, text: 'anyone?' });

    await until(async () => expect(await h.handled(event.id)).toBe(true));
    expect(await h.replies(sent.transactionId)).toEqual([
      { from: sent.recipient, text: 'anyone?', forward_state: 'no-callback' },
    ]);
    expect(replyRequests(sent.transactionId)).toEqual([]);
    expect(await h.inboundCount('stored-without-callback')).toBe(before + 1);
  });

  it('when the same inbound event is delivered twice, then it is stored and forwarded once', async () => {
    const account = h.account({ replyPathUrl: `${h.receiver.url}/dup` });
    const sent = await h.reserve({ account });

    const event = await h.inbound({ from: sent.recipient, to: sent.number, text: 'once' });
    await until(() => expect(delivered(sent.transactionId)).toHaveLength(1));
    await h.inbound({ from: sent.recipient, to: sent.number }, event);
    // A later reply of the same pair, handled after the duplicate (same key, in order).
    await h.inbound({ from: sent.recipient, to: sent.number, text: 'later' });

    await until(() => expect(delivered(sent.transactionId)).toHaveLength(2));
    expect((await h.replies(sent.transactionId)).map((r) => r.text).sort()).toEqual([
      'later',
      'once',
    ]);
    expect(replyRequests(sent.transactionId)).toHaveLength(2);
  });

  it('when the SMSC resends an SMS with the same message id (a new event), then it is stored and forwarded once', async () => {
    const account = h.account({ replyPathUrl: `${h.receiver.url}/resent` });
    const sent = await h.reserve({ account });

    const duplicates = await h.inboundCount('duplicate');
    await h.inbound({ from: sent.recipient, to: sent.number, text: 'hej', smscMessageId: 'mo-77' });
    await h.inbound({ from: sent.recipient, to: sent.number, text: 'hej', smscMessageId: 'mo-77' });

    await until(async () => expect(await h.inboundCount('duplicate')).toBe(duplicates + 1));
    await until(() => expect(delivered(sent.transactionId)).toHaveLength(1));
    expect(await h.replies(sent.transactionId)).toHaveLength(1);
    expect(replyRequests(sent.transactionId)).toHaveLength(1);
  });
});

describe('forwarding retries', () => {
  it('when the callback keeps failing, then it is retried until the reservation ends and given up then', async () => {
    const account = h.account({ replyPathUrl: `${h.receiver.url}/down` });
    // A reservation ending in three seconds: the notifier's retries (100-300 ms apart) fit several.
    const sent = await h.reserve({ account, vpMs: 3_000 });
    h.receiver.answer(503);
    try {
      await h.inbound({ from: sent.recipient, to: sent.number, text: 'are you there' });

      await until(
        () =>
          expect(
            h.deadLetters.filter(
              (d) => d.origin.kind === 'reply' && d.giveUpAt === sent.endsAt.toISOString(),
            ),
          ).toHaveLength(1),
        30_000,
      );
      const [letter] = h.deadLetters.filter((d) => d.giveUpAt === sent.endsAt.toISOString());
      expect(letter?.attempts).toBeGreaterThan(1);
      // The notifier stops at giveUpAt = VP end (it gives up once the next try would fall after it).
      // Every attempt the receiver saw is one the notifier counted: none came after giving up.
      expect(delivered(sent.transactionId)).toHaveLength(letter?.attempts ?? -1);
    } finally {
      h.receiver.answer(200);
    }
  });
});

describe('OneShot', () => {
  it('when the first reply is processed, then it is forwarded, the records are deleted, the pair stays quarantined and later replies are not processed', async () => {
    const account = h.account({ replyPathUrl: `${h.receiver.url}/oneshot` });
    const sent = await h.reserve({ account, oneShot: true });
    const unmatchedBefore = await h.inboundCount('unmatched');

    await h.inbound({ from: sent.recipient, to: sent.number, text: 'first' });
    await until(() => expect(delivered(sent.transactionId)).toHaveLength(1));
    const second = await h.inbound({ from: sent.recipient, to: sent.number, text: 'second' });
    await until(async () => expect(await h.handled(second.id)).toBe(true));

    expect(JSON.parse(delivered(sent.transactionId)[0]?.body ?? '')).toMatchObject({
      Msg: 'first',
    });
    expect(replyRequests(sent.transactionId)).toHaveLength(1);
    expect(await h.inboundCount('unmatched')).toBe(unmatchedBefore + 1);
    const message = await h.pool.query(
      `SELECT 1 FROM "replypath"."messages" WHERE "transaction_id" = $1`,
      [sent.transactionId],
    );
    expect(message.rowCount).toBe(0);
    expect(await h.replies(sent.transactionId)).toEqual([]);
    const { rows } = await h.pool.query<{ released_at: Date | null; quarantine_until: Date }>(
      `SELECT "released_at", "quarantine_until" FROM "replypath"."reservations" WHERE "transaction_id" = $1`,
      [sent.transactionId],
    );
    expect(rows[0]?.released_at).not.toBeNull();
    expect(rows[0]?.quarantine_until.getTime()).toBeGreaterThan(h.now().getTime());
    // The quarantine still blocks the pair: no newer message can take it (and a reply).
    await expect(
      h.reserve({ account, recipient: sent.recipient, number: sent.number }),
    ).rejects.toMatchObject({
      code: '23P01',
    });
  });
});

describe('VP elapses', () => {
  it('when the sweeper runs after VP, then the message and its replies are removed and the quarantine is kept', async () => {
    const account = h.account({ replyPathUrl: `${h.receiver.url}/expiry` });
    const sent = await h.reserve({ account, vpMs: 5 * MINUTE });
    await h.inbound({ from: sent.recipient, to: sent.number, text: 'in time' });
    await until(() => expect(delivered(sent.transactionId)).toHaveLength(1));
    expect(await h.replies(sent.transactionId)).toHaveLength(1);

    h.advance(5 * MINUTE);
    expect(await h.sweep()).toBeGreaterThanOrEqual(1);

    const message = await h.pool.query(
      `SELECT 1 FROM "replypath"."messages" WHERE "transaction_id" = $1`,
      [sent.transactionId],
    );
    expect(message.rowCount).toBe(0);
    expect(await h.replies(sent.transactionId)).toEqual([]);
    const reservation = await h.pool.query(
      `SELECT 1 FROM "replypath"."reservations" WHERE "transaction_id" = $1`,
      [sent.transactionId],
    );
    expect(reservation.rowCount).toBe(1);
  });

  it('when a reply arrives after VP, then it is not forwarded and not credited to a newer message of the same pair', async () => {
    const account = h.account({ replyPathUrl: `${h.receiver.url}/late` });
    const recipient = uniqueNumber();
    const number = uniqueNumber();
    const old = await h.reserve({ account, recipient, number, vpMs: MINUTE });
    h.advance(MINUTE);
    await h.sweep();
    const unmatchedBefore = await h.inboundCount('unmatched');

    // During the quarantine no newer reservation of the pair can exist...
    await expect(h.reserve({ account, recipient, number })).rejects.toMatchObject({
      code: '23P01',
    });
    // ...so the late reply finds nothing: counted, not stored, not forwarded.
    const late = await h.inbound({ from: recipient, to: number, text: 'late' });
    await until(async () => expect(await h.handled(late.id)).toBe(true));
    expect(await h.inboundCount('unmatched')).toBe(unmatchedBefore + 1);
    expect(replyRequests(old.transactionId)).toEqual([]);

    // After the quarantine the pair serves a newer message; the late reply was not credited to it.
    h.advance(QUARANTINE_MS);
    const newer = await h.reserve({ account, recipient, number });
    const fresh = await h.inbound({ from: recipient, to: number, text: 'for the newer one' });
    await until(() => expect(delivered(newer.transactionId)).toHaveLength(1));
    expect(await h.handled(fresh.id)).toBe(true);
    expect((await h.replies(newer.transactionId)).map((r) => r.text)).toEqual([
      'for the newer one',
    ]);
    expect(h.requests.filter((r) => JSON.stringify(r.body ?? '').includes('"late"'))).toEqual([]);
  });
});

describe('inbound SMS that match nothing', () => {
  it('when the pair never had a reservation, then it is counted and nothing is stored or forwarded', async () => {
    const account = h.account({ replyPathUrl: `${h.receiver.url}/unknown` });
    const sent = await h.reserve({ account });
    const before = await h.inboundCount('unmatched');
    const requestsBefore = h.requests.length;

    const stranger = await h.inbound({
      from: uniqueNumber(),
      to: sent.number,
      text: 'who is this',
    });

    await until(async () => expect(await h.handled(stranger.id)).toBe(true));
    expect(await h.inboundCount('unmatched')).toBe(before + 1);
    expect(await h.replies(sent.transactionId)).toEqual([]);
    expect(h.requests.length).toBe(requestsBefore);
  });
});

describe('stop words in replies', () => {
  it('when the recipient replies STOP, then (account of the reservation, recipient) is opted out, and the reply is still forwarded', async () => {
    const account = h.account({ replyPathUrl: `${h.receiver.url}/stop` });
    const sent = await h.reserve({ account });

    await h.inbound({ from: sent.recipient, to: sent.number, text: ' Stopp! ' });

    await until(() => expect(delivered(sent.transactionId)).toHaveLength(1));
    expect(h.stopWordChecks.filter((c) => c.inbound.from === sent.recipient)).toEqual([
      expect.objectContaining({ accountId: account.id }),
    ]);
    const { rows } = await h.pool.query(
      `SELECT "opted_out" FROM "replypath"."opt_out" WHERE "account_id" = $1 AND "msisdn" = $2`,
      [account.id, sent.recipient],
    );
    expect(rows).toEqual([{ opted_out: true }]);
    await until(() =>
      expect(h.optOuts.filter((o) => o.msisdn === sent.recipient)).toEqual([
        expect.objectContaining({ accountId: account.id, optedOut: true, source: 'inbound' }),
      ]),
    );
  });

  it('when STOP arrives after VP, while the pair is quarantined, then the recipient is opted out of that account and nothing is forwarded', async () => {
    const account = h.account({ replyPathUrl: `${h.receiver.url}/late-stop` });
    const sent = await h.reserve({ account, vpMs: MINUTE });
    h.advance(MINUTE);
    await h.sweep();

    const stop = await h.inbound({ from: sent.recipient, to: sent.number, text: 'AVSLUTA' });

    await until(async () => expect(await h.handled(stop.id)).toBe(true));
    const { rows } = await h.pool.query(
      `SELECT "opted_out" FROM "replypath"."opt_out" WHERE "account_id" = $1 AND "msisdn" = $2`,
      [account.id, sent.recipient],
    );
    expect(rows).toEqual([{ opted_out: true }]);
    expect(replyRequests(sent.transactionId)).toEqual([]);
  });

  it('when the reply is conversation or matches nothing, then nobody is opted out', async () => {
    const account = h.account({ replyPathUrl: `${h.receiver.url}/talk` });
    const sent = await h.reserve({ account });
    const stranger = uniqueNumber();

    await h.inbound({ from: sent.recipient, to: sent.number, text: 'stop sending me this please' });
    const unmatched = await h.inbound({ from: stranger, to: sent.number, text: 'STOP' });

    await until(async () => expect(await h.handled(unmatched.id)).toBe(true));
    await until(() => expect(delivered(sent.transactionId)).toHaveLength(1));
    const { rows } = await h.pool.query(
      `SELECT 1 FROM "replypath"."opt_out" WHERE "msisdn" = ANY($1::text[])`,
      [[sent.recipient, stranger]],
    );
    expect(rows).toEqual([]);
    expect(h.stopWordChecks.filter((c) => c.inbound.from === stranger)).toEqual([]);
  });
});

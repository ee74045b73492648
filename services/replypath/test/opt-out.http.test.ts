import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestReplypath, type TestReplypath, uniqueRecipient } from './support.js';

let rp: TestReplypath;

beforeAll(async () => {
  rp = await startTestReplypath();
}, 90_000);

afterAll(async () => {
  await rp?.stop();
});

/** The 7.2 body of the refusal: RECIPIENT_OPTED_OUT naming To and the rule. */
const OPTED_OUT = {
  code: 'RECIPIENT_OPTED_OUT',
  message: expect.stringMatching(/^body\.To: .*opted out/),
  details: { loc: ['body', 'To'], msg: expect.stringContaining('opted out'), type: 'opted_out' },
};

describe('sending to a recipient who opted out of the account', () => {
  it('when an operator put the recipient on the list (optouts.v1), then 400 RECIPIENT_OPTED_OUT naming To, nothing stored; another account may still send', async () => {
    const acct = await rp.publishAccount(rp.account());
    const other = await rp.publishAccount(rp.account());
    const to = uniqueRecipient();
    await rp.setOptOut(acct, to.e164, true);

    const res = await rp.send(acct, { To: to.national, Msg: 'Offer' });
    expect(res.status, res.text).toBe(400);
    expect(res.body).toEqual(OPTED_OUT);
    expect(await rp.reservationsOf(acct)).toBe(0);

    expect((await rp.send(other, { To: to.national, Msg: 'Hi' })).status).toBe(200);
  });

  it('when the send is a dry run (instantiate=false), then it is refused the same way', async () => {
    const acct = await rp.publishAccount(rp.account());
    const to = uniqueRecipient();
    await rp.setOptOut(acct, to.e164, true);

    const res = await rp.send(acct, { To: to.national, Msg: 'Offer' }, '?instantiate=false');
    expect(res.status, res.text).toBe(400);
    expect(res.body).toEqual(OPTED_OUT);
  });

  it('when one of several recipients opted out, then the whole request is refused naming which one, and nothing is stored for the others', async () => {
    const acct = await rp.publishAccount(rp.account());
    await rp.setOptOut(acct, '+468123502', true);

    const res = await rp.send(acct, { To: '08123501;08123502', Msg: 'Offer' });
    expect(res.status, res.text).toBe(400);
    expect(res.body).toEqual({
      code: 'RECIPIENT_OPTED_OUT',
      message: expect.stringMatching(/^body\.To: recipient 2 of 2: .*opted out/),
      details: {
        loc: ['body', 'To'],
        msg: expect.stringMatching(/^recipient 2 of 2: /),
        type: 'opted_out',
      },
    });
    expect(await rp.reservationsOf(acct)).toBe(0);
  });

  it('when the recipient replies STOP to a reply-path message, then the next send is refused; after START it is accepted again (through the replica)', async () => {
    const acct = await rp.publishAccount(rp.account());
    const to = uniqueRecipient();
    const first = await rp.send(acct, { To: to.national, Msg: 'Offer' });
    expect(first.status, first.text).toBe(200);
    const number = first.body.OriginatorAddress as string;

    await rp.inbound({ from: to.e164, to: number, text: 'STOP' });
    await rp.optedOutSoon(acct, to.e164, true);
    const refused = await rp.send(acct, { To: to.national, Msg: 'Offer' });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body).toEqual(OPTED_OUT);

    await rp.inbound({ from: to.e164, to: number, text: 'Start' });
    await rp.optedOutSoon(acct, to.e164, false);
    const again = await rp.send(acct, { To: to.national, Msg: 'Welcome back' });
    expect(again.status, again.text).toBe(200);
  });

  it('when an operator lifts the opt-out (optouts.v1), then sends are accepted again', async () => {
    const acct = await rp.publishAccount(rp.account());
    const to = uniqueRecipient();
    await rp.setOptOut(acct, to.e164, true);
    expect((await rp.send(acct, { To: to.national, Msg: 'Offer' })).status).toBe(400);

    await rp.setOptOut(acct, to.e164, false);
    expect((await rp.send(acct, { To: to.national, Msg: 'Offer' })).status).toBe(200);
  });

  it('when the legacy service sends through the internal API to an opted-out recipient, then 400 RECIPIENT_OPTED_OUT', async () => {
    const acct = await rp.publishAccount(rp.account());
    const to = uniqueRecipient();
    await rp.setOptOut(acct, to.e164, true);

    const res = await rp.internalSendFor(acct, to.national, 'Offer');
    expect(res.status, res.text).toBe(400);
    expect(res.body).toEqual(OPTED_OUT);
  });
});

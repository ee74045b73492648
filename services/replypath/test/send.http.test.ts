import type { AccountState } from '@msg/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestReplypath, type TestReplypath } from './support.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const GSM_1530 = 'a'.repeat(1530);

describe('POST /replypath/v1/sendsms', () => {
  let rp: TestReplypath;
  let acct: AccountState;
  // A different recipient per accepted send keeps the small pool from running out.
  let next = 1740100;
  const recipient = () => `070${(next++).toString()}`;

  beforeAll(async () => {
    rp = await startTestReplypath({
      pool: Array.from({ length: 12 }, (_, i) => `+46701740${(605 + i).toString()}`),
    });
    acct = await rp.publishAccount(rp.account());
  });

  afterAll(async () => {
    await rp?.stop();
  });

  /** 400 VALIDATION_ERROR whose details (one object) name `field` and `type`. */
  async function refused(body: unknown, field: string, type?: string) {
    const res = await rp.send(acct, body as object);
    expect(res.status, res.text).toBe(400);
    expect(res.body).toEqual({
      code: 'VALIDATION_ERROR',
      message: expect.stringContaining(field),
      details: {
        loc: expect.arrayContaining([field]),
        msg: expect.any(String),
        type: type ?? expect.any(String),
      },
    });
    return res;
  }

  describe('when the request is valid', () => {
    it('when one recipient is given, then 200 with one object: recipient in E.164, a pool number, a uuid', async () => {
      const res = await rp.send(acct, { To: '070-174 06 01', Msg: 'Hello' });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({
        DestinationAddress: '+46701740601',
        OriginatorAddress: expect.stringMatching(/^\+467017406(0[5-9]|1[0-6])$/),
        TransactionId: expect.stringMatching(UUID),
      });
    });

    it('when the message is queued, then sms.outbound.v1 carries the allocated number, VP and DLR', async () => {
      const res = await rp.send(acct, { To: recipient(), Msg: 'Hi', DLR: 1, VP: 90, OneShot: 1 });
      expect(res.status, res.text).toBe(200);
      const event = await rp.published(res.body.TransactionId);
      expect(event.payload).toEqual({
        messageId: res.body.TransactionId,
        accountId: acct.id,
        source: 'replypath',
        from: res.body.OriginatorAddress,
        to: res.body.DestinationAddress,
        text: 'Hi',
        encoding: 'GSM-7',
        parts: 1,
        deliveryReport: true,
        validityMinutes: 90,
        throughputPerSecond: acct.smsThroughputPerSecond,
      });
      expect(event.accountId).toBe(acct.id);
    });

    it('when DLR and VP are left out, then no delivery report and the 4320-minute default', async () => {
      const res = await rp.send(acct, { To: recipient(), Msg: 'Hi' });
      const event = await rp.published(res.body.TransactionId);
      expect(event.payload).toMatchObject({ deliveryReport: false, validityMinutes: 4320 });
    });

    it('when VP is 0, then the message is sent with the one-minute minimum validity', async () => {
      const res = await rp.send(acct, { To: recipient(), Msg: 'Hi', VP: 0 });
      expect(res.status, res.text).toBe(200);
      const event = await rp.published(res.body.TransactionId);
      expect(event.payload.validityMinutes).toBe(1);
    });

    it('when the text is UCS-2, then the event says so with its part count', async () => {
      const res = await rp.send(acct, { To: recipient(), Msg: 'Привет'.repeat(20) });
      const event = await rp.published(res.body.TransactionId);
      expect(event.payload).toMatchObject({ encoding: 'UCS-2', parts: 2 });
    });

    it.each([
      ['+46 70 174 01 50', '+46701740150'],
      ['0046701740151', '+46701740151'],
      ['(070) 174-0152', '+46701740152'],
    ])('when To is %s, then the recipient is %s', async (to, e164) => {
      const res = await rp.send(acct, { To: to, Msg: 'Hi' });
      expect(res.status, res.text).toBe(200);
      expect(res.body.DestinationAddress).toBe(e164);
    });

    it('when To has 10 and 17 characters, then both are accepted', async () => {
      expect((await rp.send(acct, { To: '0701740160', Msg: 'Hi' })).status).toBe(200);
      expect(
        (await rp.send(acct, { To: '+46 (0)70 1740161'.replace('(0)', '   '), Msg: 'Hi' })).status,
      ).toBe(200);
    });

    it('when Msg is 1 or 1530 GSM-7 characters, then it is accepted', async () => {
      expect((await rp.send(acct, { To: recipient(), Msg: 'x' })).status).toBe(200);
      const res = await rp.send(acct, { To: recipient(), Msg: GSM_1530 });
      expect(res.status, res.text).toBe(200);
      expect((await rp.published(res.body.TransactionId)).payload.parts).toBe(10);
    });
  });

  describe('when several recipients are given', () => {
    it('when separated by comma or semicolon, then an array of results in To order, each its own message', async () => {
      const res = await rp.send(acct, { To: '08123456;08123457', Msg: 'Hi' });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toHaveLength(2);
      expect(res.body.map((r: { DestinationAddress: string }) => r.DestinationAddress)).toEqual([
        '+468123456',
        '+468123457',
      ]);
      expect(res.body[0].TransactionId).not.toBe(res.body[1].TransactionId);
      const comma = await rp.send(acct, { To: '08123458,08123459', Msg: 'Hi' });
      expect(comma.body).toHaveLength(2);
    });

    it('when one of them is refused, then 400 and nothing is sent for the other', async () => {
      const res = await refused({ To: '08123460;+4712345', Msg: 'Hi' }, 'To', 'not_swedish');
      expect(res.body.details.msg).toContain('recipient 2 of 2');
      const { rows } = await rp.pool.query(
        'SELECT count(*)::int AS n FROM replypath.messages WHERE recipient = $1',
        ['+468123460'],
      );
      expect(rows[0].n).toBe(0);
    });

    it('when a recipient between separators is empty, then 400 naming To', async () => {
      await refused({ To: '0701740170;;', Msg: 'Hi' }, 'To', 'empty');
    });
  });

  describe('when a send is retried with the same Idempotency-Key', () => {
    it('then the first answer is replayed: one message, one number, one event', async () => {
      const body = { To: recipient(), Msg: 'Once' };
      const first = await rp.send(acct, body).set('idempotency-key', 'retry-1');
      const again = await rp.send(acct, body).set('idempotency-key', 'retry-1');
      expect(again.status).toBe(200);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
      const { rows } = await rp.pool.query(
        'SELECT count(*)::int AS n FROM replypath.reservations WHERE recipient = $1',
        [first.body.DestinationAddress],
      );
      expect(rows[0].n).toBe(1);
    });

    it('when the body differs, then 422 naming the header', async () => {
      await rp.send(acct, { To: recipient(), Msg: 'A' }).set('idempotency-key', 'retry-2');
      const res = await rp
        .send(acct, { To: recipient(), Msg: 'B' })
        .set('idempotency-key', 'retry-2');
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({
        code: 'IDEMPOTENCY_KEY_REUSED',
        details: { loc: ['header', 'Idempotency-Key'] },
      });
    });
  });

  describe('when instantiate=false', () => {
    it('then the answer shows the number that would be used, and nothing is stored or sent', async () => {
      const to = recipient();
      const before = rp.outbound.length;
      const dry = await rp.send(acct, { To: to, Msg: 'Hi' }, '?instantiate=false');
      expect(dry.status, dry.text).toBe(200);
      expect(dry.body.TransactionId).toMatch(UUID);
      const { rows } = await rp.pool.query(
        'SELECT count(*)::int AS n FROM replypath.messages WHERE transaction_id = $1',
        [dry.body.TransactionId],
      );
      expect(rows[0].n).toBe(0);
      const real = await rp.send(acct, { To: to, Msg: 'Hi' });
      expect(real.body.OriginatorAddress).toBe(dry.body.OriginatorAddress);
      await rp.published(real.body.TransactionId);
      expect(rp.outbound.filter((e) => e.payload.messageId === dry.body.TransactionId)).toEqual([]);
      expect(rp.outbound.length).toBe(before + 1);
    });

    it('when instantiate is not a boolean, then 400 naming it', async () => {
      const res = await rp.send(acct, { To: recipient(), Msg: 'Hi' }, '?instantiate=maybe');
      expect(res.status).toBe(400);
      expect(res.body.details.loc).toEqual(['query', 'instantiate']);
    });
  });

  describe('when a field breaks a rule of 2.3 / 8.2, then 400 VALIDATION_ERROR naming it', () => {
    it.each([
      ['To missing', { Msg: 'Hi' }, 'To', 'missing'],
      ['Msg missing', { To: '0701740180' }, 'Msg', 'missing'],
      ['To of 9 characters', { To: '070174018', Msg: 'Hi' }, 'To', 'minLength'],
      ['To of 18 characters', { To: '+46 70 174 01 81  ', Msg: 'Hi' }, 'To', 'maxLength'],
      ['To not a string', { To: 46701740182, Msg: 'Hi' }, 'To', 'type'],
      ['To not Swedish', { To: '+4791234567', Msg: 'Hi' }, 'To', 'not_swedish'],
      ['To not a number', { To: '0100000000', Msg: 'Hi' }, 'To', 'invalid_number'],
      ['Msg empty', { To: '0701740183', Msg: '' }, 'Msg', 'minLength'],
      ['Msg of 1531 characters', { To: '0701740184', Msg: `${GSM_1530}a` }, 'Msg', 'maxLength'],
      [
        'Msg of 11 UCS-2 parts',
        { To: '0701740185', Msg: 'ж'.repeat(671) },
        'Msg',
        'too_many_parts',
      ],
      [
        'Msg of 11 GSM-7 parts (escapes)',
        { To: '0701740186', Msg: '€'.repeat(766) },
        'Msg',
        'too_many_parts',
      ],
      ['VP -1', { To: '0701740187', Msg: 'Hi', VP: -1 }, 'VP', 'minimum'],
      ['VP 4321', { To: '0701740188', Msg: 'Hi', VP: 4321 }, 'VP', 'maximum'],
      ['VP a string', { To: '0701740189', Msg: 'Hi', VP: '60' }, 'VP', 'type'],
      ['VP a fraction', { To: '0701740190', Msg: 'Hi', VP: 1.5 }, 'VP', 'type'],
      ['DLR 2', { To: '0701740191', Msg: 'Hi', DLR: 2 }, 'DLR', 'enum'],
      ['OneShot 2', { To: '0701740192', Msg: 'Hi', OneShot: 2 }, 'OneShot', 'enum'],
      ['an unknown field', { To: '0701740193', Msg: 'Hi', From: 'x' }, 'From', undefined],
    ])('%s', async (_name, body, field, type) => {
      await refused(body, field, type);
    });

    it('when the body is not JSON, then 400 VALIDATION_ERROR (malformed)', async () => {
      const res = await rp.send(acct, '{"To": "0701740194", "Msg": ');
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: { loc: ['body'], type: 'malformed' },
      });
    });

    it('when the text has a lone surrogate, then 400 naming Msg', async () => {
      const res = await rp.send(acct, '{"To": "0701740195", "Msg": "a\\ud800b"}');
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(res.body.details).toMatchObject({ loc: ['body', 'Msg'], type: 'text' });
    });

    it('when the body is over the limit, then 400 VALIDATION_ERROR (maxSize)', async () => {
      const res = await rp.send(
        acct,
        JSON.stringify({ To: '0701740196', Msg: 'x'.repeat(20_000) }),
      );
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: { loc: ['body'], type: 'maxSize' },
      });
    });

    it('when the body is not sent as JSON, then 400 VALIDATION_ERROR (mediaType)', async () => {
      const res = await rp
        .send(acct, 'To=0701740197&Msg=Hi')
        .set('content-type', 'application/x-www-form-urlencoded');
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { type: 'mediaType' } });
    });

    it('when the body is an array, then 400', async () => {
      const res = await rp.send(acct, '[]');
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    });
  });
});

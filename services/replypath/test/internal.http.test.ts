import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestReplypath, type TestReplypath } from './support.js';

describe('POST /internal/v1/sendsms (the legacy reply-path service)', () => {
  let rp: TestReplypath;

  beforeAll(async () => {
    rp = await startTestReplypath();
  });

  afterAll(async () => {
    await rp?.stop();
  });

  it('when the token is wrong or missing, then 401', async () => {
    const body = { accountId: 'x', source: 'replypath-legacy', To: '0701740301', Msg: 'Hi' };
    expect((await rp.internalSend(body, 'wrong')).status).toBe(401);
    const none = await rp.internalSend(body).set('authorization', '');
    expect(none.status).toBe(401);
    expect(none.body.code).toBe('UNAUTHORIZED');
  });

  it('when valid, then 200 with results, and the event has source replypath-legacy', async () => {
    const acct = await rp.publishAccount(rp.account());
    const res = await rp.internalSend({
      accountId: acct.id,
      source: 'replypath-legacy',
      To: '0701740302',
      Msg: 'Hi',
      DLR: 1,
      VP: 30,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      results: [
        {
          DestinationAddress: '+46701740302',
          OriginatorAddress: expect.stringMatching(/^\+4670174060[5-7]$/),
          TransactionId: expect.any(String),
        },
      ],
    });
    const event = await rp.published(res.body.results[0].TransactionId);
    expect(event.payload).toMatchObject({
      source: 'replypath-legacy',
      accountId: acct.id,
      deliveryReport: true,
      validityMinutes: 30,
    });
    const { rows } = await rp.pool.query(
      'SELECT source FROM replypath.messages WHERE transaction_id = $1',
      [res.body.results[0].TransactionId],
    );
    expect(rows).toEqual([{ source: 'replypath-legacy' }]);
  });

  it('when a rule of the public interface is broken, then the same 400', async () => {
    const acct = await rp.publishAccount(rp.account());
    const res = await rp.internalSend({
      accountId: acct.id,
      source: 'replypath-legacy',
      To: '+4791234567',
      Msg: 'Hi',
    });
    expect(res.status).toBe(400);
    expect(res.body.details).toMatchObject({ loc: ['body', 'To'], type: 'not_swedish' });
  });

  it('when the account is unknown (the directory lags), then 503 with Retry-After', async () => {
    const res = await rp.internalSend({
      accountId: '00000000-0000-4000-8000-000000000000',
      source: 'replypath-legacy',
      To: '0701740303',
      Msg: 'Hi',
    });
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.body.code).toBe('SERVICE_UNAVAILABLE');
  });

  it('when the pool has no number free for the recipient, then 429 POOL_EXHAUSTED with Retry-After', async () => {
    const acct = await rp.publishAccount(rp.account());
    const send = () =>
      rp.internalSend({
        accountId: acct.id,
        source: 'replypath-legacy',
        To: '0701740304',
        Msg: 'Hi',
        VP: 1,
      });
    for (let i = 0; i < 3; i += 1) expect((await send()).status).toBe(200);
    const res = await send();
    expect(res.status).toBe(429);
    expect(res.body).toEqual({ code: 'POOL_EXHAUSTED', message: expect.any(String) });
    // VP 1 minute + the default quarantine of one hour.
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(3600);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(3660);
  });
});

describe('the pool management API /internal/v1/pool/numbers', () => {
  let rp: TestReplypath;

  beforeAll(async () => {
    rp = await startTestReplypath({ pool: [] });
  });

  afterAll(async () => {
    await rp?.stop();
  });

  const api = () => ({
    list: () => rp.admin(request('get', '/internal/v1/pool/numbers')),
  });
  function request(method: 'get' | 'post' | 'patch' | 'delete', path: string) {
    return rp.raw()[method](path);
  }

  it('when the token is wrong, then 401', async () => {
    const res = await request('get', '/internal/v1/pool/numbers').set('authorization', 'Bearer x');
    expect(res.status).toBe(401);
  });

  it('when a range is added, then every number of it is listed, enabled and free', async () => {
    const res = await rp
      .admin(request('post', '/internal/v1/pool/numbers'))
      .send({ from: '070-1740605', to: '+46701740609' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.added).toEqual([
      '+46701740605',
      '+46701740606',
      '+46701740607',
      '+46701740608',
      '+46701740609',
    ]);
    const again = await rp
      .admin(request('post', '/internal/v1/pool/numbers'))
      .send({ numbers: ['0701740609', '0701740610'] });
    expect(again.body).toEqual({ added: ['+46701740610'], existing: ['+46701740609'] });
    const list = await api().list();
    expect(list.body.numbers).toHaveLength(6);
    expect(list.body.numbers[0]).toEqual({
      number: '+46701740605',
      enabled: true,
      addedAt: expect.any(String),
      activeReservations: 0,
      quarantinedReservations: 0,
    });
  });

  it('when a range is backwards, too large or not Swedish, then 400 naming the field', async () => {
    const add = (body: object) => rp.admin(request('post', '/internal/v1/pool/numbers')).send(body);
    expect((await add({ from: '0701740620', to: '0701740610' })).body.details.loc).toEqual([
      'body',
      'to',
    ]);
    expect((await add({ from: '0701700000', to: '0701799999' })).body.details.type).toBe('range');
    expect((await add({ numbers: ['+4791234567'] })).body.details).toMatchObject({
      loc: ['body', 'numbers', '0'],
      type: 'not_swedish',
    });
    expect((await add({ from: '0701740605' })).status).toBe(400);
  });

  it('when a number is disabled and enabled, then the list shows it; an unknown number is 404', async () => {
    const patch = (n: string, enabled: boolean) =>
      rp
        .admin(request('patch', `/internal/v1/pool/numbers/${encodeURIComponent(n)}`))
        .send({ enabled });
    // The path takes a recipient's forms too.
    const off = await patch('070-174 06 06', false);
    expect(off.status, off.text).toBe(200);
    expect(off.body).toMatchObject({ number: '+46701740606', enabled: false });
    expect((await patch('+46701740606', true)).body.enabled).toBe(true);
    expect((await patch('+46701749999', true)).status).toBe(404);
    const foreign = await patch('+4791234567', true);
    expect(foreign.status).toBe(400);
    expect(foreign.body.details).toMatchObject({ loc: ['path', 'number'], type: 'not_swedish' });
  });

  it('when a number holds an active reservation, then removing it is refused (409); a free one is removed', async () => {
    const acct = await rp.publishAccount(rp.account());
    const sent = await rp.send(acct, { To: '0701740401', Msg: 'Hi' });
    const held = sent.body.OriginatorAddress as string;
    const remove = (n: string) =>
      rp.admin(request('delete', `/internal/v1/pool/numbers/${encodeURIComponent(n)}`));
    const refused = await remove(held);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('CONFLICT');
    const list = await api().list();
    expect(list.body.numbers.find((n: { number: string }) => n.number === held)).toMatchObject({
      activeReservations: 1,
      lastAllocatedAt: expect.any(String),
    });
    const free = list.body.numbers.find(
      (n: { number: string; activeReservations: number }) => n.activeReservations === 0,
    ).number;
    expect((await remove(free)).status).toBe(204);
    expect((await remove(free)).status).toBe(404);
  });
});

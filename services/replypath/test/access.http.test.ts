import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestReplypath, type TestReplypath } from './support.js';

const BODY = { To: '0701740101', Msg: 'Hi' };

describe('POST /replypath/v1/sendsms access (spec 5, 7.2, 8.2)', () => {
  let rp: TestReplypath;

  beforeAll(async () => {
    rp = await startTestReplypath();
  });

  afterAll(async () => {
    await rp?.stop();
  });

  it('when the password is wrong, then 401 with a Basic challenge in the 7.2 format', async () => {
    const acct = await rp.publishAccount(rp.account());
    const res = await rp.send(acct, BODY, '', 'wrong');
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Basic realm="Reply-path"/);
    expect(res.body).toEqual({ code: 'UNAUTHORIZED', message: expect.any(String) });
  });

  it('when there are no credentials, then 401 before the body is looked at', async () => {
    const res = await rp.send(rp.account(), {}).set('authorization', '');
    expect(res.status).toBe(401);
  });

  it('when the account lacks the replypath permission, then 403', async () => {
    const acct = await rp.publishAccount(rp.account({ permissions: ['sms'] }));
    const res = await rp.send(acct, BODY);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('FORBIDDEN');
  });

  it('when the account is disabled, then 403', async () => {
    const acct = await rp.publishAccount(rp.account({ status: 'disabled' }));
    expect((await rp.send(acct, BODY)).status).toBe(403);
  });

  it('when the caller is outside the IP allow-list, then 403', async () => {
    const acct = await rp.publishAccount(rp.account({ ipAllowList: ['203.0.113.0/24'] }));
    expect((await rp.send(acct, BODY)).status).toBe(403);
  });

  it('when the account is past its rate, then 429 with Retry-After', async () => {
    const acct = await rp.publishAccount(rp.account({ rateLimit: { perSecond: 0.01, burst: 1 } }));
    await rp.send(acct, { To: '0701740102', Msg: 'Hi' });
    const res = await rp.send(acct, { To: '0701740103', Msg: 'Hi' });
    expect(res.status).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.body).toEqual({ code: 'RATE_LIMITED', message: expect.any(String) });
  });

  it('when the account contract allows more than 100 per second, then the bucket holds 100', async () => {
    const acct = await rp.publishAccount(
      rp.account({ rateLimit: { perSecond: 0.001, burst: 1000 } }),
    );
    // Refusals of the body still take a token: 100 of them use the capped bucket up.
    const answers = [];
    for (let i = 0; i < 101; i += 1) answers.push((await rp.send(acct, {})).status);
    expect(answers.slice(0, 100).every((s) => s === 400)).toBe(true);
    expect(answers[100]).toBe(429);
  });
});

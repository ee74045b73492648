import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRcs, type TestRcs } from './support.js';

const body = (agent_id: string) => ({
  recipient: '+46701740605',
  agent_id,
  message: { text: 'Hello' },
});

describe('RCS access: X-API-Key + X-Client-ID, permission, agent, rate (spec 5, 7.4, 8.4)', () => {
  let rcs: TestRcs;

  beforeAll(async () => {
    // A small rate so the 429 test needs few requests.
    rcs = await startTestRcs({ perMinute: 3 });
  });

  afterAll(async () => {
    await rcs?.stop();
  });

  it('when the headers are missing, then 401 before the body is looked at', async () => {
    const res = await rcs.raw().post('/rcs/v1/messages').send({});
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: 'UNAUTHORIZED', message: expect.any(String), details: {} });
  });

  it('when only the client id is given, then 401', async () => {
    const acct = await rcs.publishAccount(rcs.account());
    const res = await rcs.raw().post('/rcs/v1/messages').set('x-client-id', acct.name).send({});
    expect(res.status).toBe(401);
  });

  it('when the key is wrong, then 401', async () => {
    const acct = await rcs.publishAccount(rcs.account());
    const res = await rcs.send(acct, body('a1'), 'msgk_wrong-key-wrong-key-wrong-key-wrong-key-00');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('UNAUTHORIZED');
  });

  it('when the client id names no account, then 401', async () => {
    const acct = rcs.account();
    const res = await rcs.send({ ...acct, name: 'nobody-at-all' }, body('a1'));
    expect(res.status).toBe(401);
  });

  it("when the account lacks the 'rcs' permission, then 403", async () => {
    const acct = await rcs.publishAccount(rcs.account({ permissions: ['sms'] }));
    const res = await rcs.send(acct, body('a1'));
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: 'FORBIDDEN', message: expect.any(String), details: {} });
  });

  it('when the account is disabled, then 403', async () => {
    const acct = await rcs.publishAccount(rcs.account({ status: 'disabled' }));
    expect((await rcs.send(acct, body('a1'))).status).toBe(403);
  });

  it('when the account may not send as the agent, then 403; an unknown agent is a 400 naming agent_id', async () => {
    const owner = await rcs.publishAccount(rcs.account());
    const other = await rcs.publishAccount(rcs.account());
    await rcs.agent('access-agent', [owner]);
    const refused = await rcs.send(other, body('access-agent'));
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('FORBIDDEN');
    const unknown = await rcs.send(other, body('no-such-agent'));
    expect(unknown.status).toBe(400);
    expect(unknown.body.details.errors).toEqual([
      { loc: ['body', 'agent_id'], msg: expect.any(String), type: 'unknown_agent' },
    ]);
    const allowed = await rcs.send(owner, body('access-agent'));
    expect(allowed.status).toBe(202);
  });

  it('when the client is past its per-minute rate, then 429 with Retry-After; refused bodies count', async () => {
    const acct = await rcs.publishAccount(rcs.account());
    const answers = [];
    for (let i = 0; i < 4; i += 1) answers.push(await rcs.send(acct, {}));
    expect(answers.slice(0, 3).map((r) => r.status)).toEqual([400, 400, 400]);
    expect(answers[3]?.status).toBe(429);
    expect(Number(answers[3]?.headers['retry-after'])).toBeGreaterThan(0);
    expect(answers[3]?.body).toEqual({
      code: 'RATE_LIMITED',
      message: expect.any(String),
      details: {},
    });
  });
});

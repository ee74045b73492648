import type { AccountState } from '@msg/contracts';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RcsWithRbm, startRcsWithRbm } from './rbm-support.js';
import { API_KEY } from './support.js';

const AGENT = 'tester-agent';
const PHONE = '+46701740605';

describe('testers /rcs/v1/testers (spec 2.5, 4.5, 8.4)', () => {
  let env: RcsWithRbm;
  let stranger: AccountState;
  let seq = 0;
  const phone = () => `+4671${String(1_000_000 + ++seq).padStart(7, '0')}`;

  const as = (acct: AccountState, req: request.Test) =>
    req.set('x-api-key', API_KEY).set('x-client-id', acct.name);
  const api = () => request(env.rcs.app);
  const add = (body: object, acct = env.acct) => as(acct, api().post('/rcs/v1/testers')).send(body);
  const one = (number: string, method: 'get' | 'patch' | 'delete' = 'get', agent = AGENT) =>
    as(
      env.acct,
      api()
        [method](`/rcs/v1/testers/${encodeURIComponent(number)}`)
        .query({ agent_id: agent }),
    );
  const list = (agent = AGENT, acct = env.acct) =>
    as(acct, api().get('/rcs/v1/testers').query({ agent_id: agent }));
  const locs = (res: request.Response) =>
    res.body.details.errors.map((e: { loc: string[]; type: string }) => [e.loc.join('.'), e.type]);

  beforeAll(async () => {
    env = await startRcsWithRbm();
    await env.agent(AGENT);
    stranger = await env.rcs.publishAccount(env.rcs.account({ name: 'tester-stranger' }));
    await env.rcs.agent('no-credentials-agent', [env.acct]);
  }, 60_000);

  afterAll(async () => {
    await env?.stop();
  });

  describe('add', () => {
    it('when a number is added, then 201 with the tester, PENDING, invited at RBM with the agent', async () => {
      const res = await add({ phone_number: PHONE, agent_id: AGENT, label: 'QA phone' });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body).toEqual({
        agent_id: AGENT,
        phone_number: PHONE,
        label: 'QA phone',
        invite_status: 'PENDING',
        name: `phones/${PHONE}/testers`,
      });
      const invited = await env.control<{ testers: { agentId: string; phone: string }[] }>(
        'GET',
        '/testers',
      );
      expect(invited.body.testers).toContainEqual(
        expect.objectContaining({ agentId: AGENT, phone: PHONE }),
      );
    });

    it('when the label is 25 characters, then accepted; 26 is a 400 naming label', async () => {
      expect(
        (await add({ phone_number: phone(), agent_id: AGENT, label: 'x'.repeat(25) })).status,
      ).toBe(201);
      const res = await add({ phone_number: phone(), agent_id: AGENT, label: 'x'.repeat(26) });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(locs(res)).toEqual([['body.label', 'maxLength']]);
    });

    it.each([
      ['no plus', '46701740605'],
      ['leading zero', '+046701740605'],
      ['too long (16 digits)', '+4670174060512345'],
      ['too short (1 digit)', '+4'],
      // Issue 23: these passed the document and made the RBM client throw (500).
      ['a country code alone', '+46'],
      ['3 digits', '+999'],
      ['5 digits', '+46701'],
      ['6 digits', '+123456'],
      ['spaces', '+46 70 174 06 05'],
    ])('when phone_number has %s, then 400 naming phone_number', async (_case, number) => {
      const res = await add({ phone_number: number, agent_id: AGENT });
      expect(res.status).toBe(400);
      expect(locs(res)).toEqual([['body.phone_number', 'pattern']]);
    });

    it('when phone_number or agent_id is missing, then 400 naming each', async () => {
      const res = await add({});
      expect(res.status).toBe(400);
      expect(
        locs(res)
          .map((l: string[]) => l[0])
          .sort(),
      ).toEqual(['body.agent_id', 'body.phone_number']);
    });

    it('when the agent does not exist, then 400 naming agent_id (unknown_agent)', async () => {
      const res = await add({ phone_number: phone(), agent_id: 'no-such-agent' });
      expect(res.status).toBe(400);
      expect(locs(res)).toEqual([['body.agent_id', 'unknown_agent']]);
    });

    it('when the account may not send as the agent, then 403', async () => {
      const res = await add({ phone_number: phone(), agent_id: AGENT }, stranger);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('FORBIDDEN');
    });

    it('when the agent has no RBM credentials, then 503 and nothing stored', async () => {
      const number = phone();
      const res = await add({ phone_number: number, agent_id: 'no-credentials-agent' });
      expect(res.status).toBe(503);
      expect((await one(number, 'get', 'no-credentials-agent')).status).toBe(404);
    });

    it('when the number is already a tester, then 200 with its current status, label replaced only when given', async () => {
      const number = phone();
      expect((await add({ phone_number: number, agent_id: AGENT, label: 'first' })).status).toBe(
        201,
      );
      const again = await add({ phone_number: number, agent_id: AGENT });
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ label: 'first', invite_status: 'PENDING' });
      const relabelled = await add({ phone_number: number, agent_id: AGENT, label: 'second' });
      expect(relabelled.body.label).toBe('second');
    });
  });

  describe('get, list', () => {
    it('when the user accepts the invite on the device, then get syncs PENDING to ACCEPTED from RBM', async () => {
      const number = phone();
      await add({ phone_number: number, agent_id: AGENT });
      expect((await one(number)).body.invite_status).toBe('PENDING');
      const accepted = await env.control('PUT', `/testers/${encodeURIComponent(number)}`, {
        agentId: AGENT,
        inviteStatus: 'ACCEPTED',
      });
      expect(accepted.status).toBe(200);
      const res = await one(number);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ phone_number: number, invite_status: 'ACCEPTED' });
      // Stored: the list shows it without asking RBM.
      const listed = (await list()).body.testers.find(
        (t: { phone_number: string }) => t.phone_number === number,
      );
      expect(listed.invite_status).toBe('ACCEPTED');
    });

    it('when the user declines, then DECLINED', async () => {
      const number = phone();
      await add({ phone_number: number, agent_id: AGENT });
      await env.control('PUT', `/testers/${encodeURIComponent(number)}`, {
        agentId: AGENT,
        inviteStatus: 'DECLINED',
      });
      expect((await one(number)).body.invite_status).toBe('DECLINED');
    });

    it('when the path carries + unencoded, then it is the same tester', async () => {
      const res = await as(
        env.acct,
        api().get(`/rcs/v1/testers/${PHONE}`).query({ agent_id: AGENT }),
      );
      expect(res.status).toBe(200);
      expect(res.body.phone_number).toBe(PHONE);
    });

    it('when the number is not a tester of the agent, then 404 in the 7.4 format', async () => {
      const res = await one('+46709999991');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: 'NOT_FOUND', message: expect.any(String), details: {} });
    });

    it.each(['0701740605', '+46', '+46701'])(
      'when the phone in the path is %j (not E.164 of 7 to 15 digits), then 400 naming phone_number on get, update and remove',
      async (number) => {
        for (const method of ['get', 'patch', 'delete'] as const) {
          const res = await one(number, method).send(method === 'patch' ? { label: 'x' } : {});
          expect(res.status, method).toBe(400);
          expect(locs(res).map((loc: string[]) => loc[0])).toEqual(['path.phone_number']);
        }
      },
    );

    it('when listed, then testers and total_count, for the agent only', async () => {
      const res = await list();
      expect(res.status).toBe(200);
      expect(res.body.total_count).toBe(res.body.testers.length);
      expect(res.body.total_count).toBeGreaterThan(3);
      expect(res.body.testers.every((t: { agent_id: string }) => t.agent_id === AGENT)).toBe(true);
      const empty = await list('no-credentials-agent');
      expect(empty.body).toEqual({ testers: [], total_count: 0 });
    });

    it('when the list names an unknown agent, then 400 naming the query agent_id; agent_id missing, 400 too', async () => {
      const unknown = await list('no-such-agent');
      expect(unknown.status).toBe(400);
      expect(locs(unknown)).toEqual([['query.agent_id', 'unknown_agent']]);
      const missing = await as(env.acct, api().get('/rcs/v1/testers'));
      expect(missing.status).toBe(400);
      expect(locs(missing)[0][0]).toBe('query.agent_id');
    });

    it('when another account lists the agent, then 403', async () => {
      expect((await list(AGENT, stranger)).status).toBe(403);
    });

    it('when called without credentials, then 401', async () => {
      expect((await api().get('/rcs/v1/testers').query({ agent_id: AGENT })).status).toBe(401);
    });
  });

  describe('update label', () => {
    it('when the label is set to 25 characters, then 200; null clears it; 26 is a 400', async () => {
      const number = phone();
      await add({ phone_number: number, agent_id: AGENT, label: 'old' });
      const set = await one(number, 'patch').send({ label: 'y'.repeat(25) });
      expect(set.status).toBe(200);
      expect(set.body.label).toBe('y'.repeat(25));
      const cleared = await one(number, 'patch').send({ label: null });
      expect(cleared.status).toBe(200);
      expect(cleared.body.label).toBeNull();
      const long = await one(number, 'patch').send({ label: 'y'.repeat(26) });
      expect(long.status).toBe(400);
      expect(locs(long)).toEqual([['body.label', 'maxLength']]);
    });

    it('when the body names another field, then 400 immutable for each and nothing changes', async () => {
      const number = phone();
      await add({ phone_number: number, agent_id: AGENT, label: 'keep' });
      const res = await one(number, 'patch').send({
        label: 'new',
        invite_status: 'ACCEPTED',
        agent_id: 'x',
      });
      expect(res.status).toBe(400);
      expect(locs(res).sort()).toEqual([
        ['body.agent_id', 'immutable'],
        ['body.invite_status', 'immutable'],
      ]);
      expect((await one(number)).body).toMatchObject({ label: 'keep', invite_status: 'PENDING' });
    });

    it('when label is absent, then 400 naming label; unknown tester, 404', async () => {
      const number = phone();
      await add({ phone_number: number, agent_id: AGENT });
      const res = await one(number, 'patch').send({});
      expect(res.status).toBe(400);
      expect(locs(res)[0][0]).toBe('body.label');
      expect((await one('+46709999992', 'patch').send({ label: 'x' })).status).toBe(404);
    });
  });

  describe('remove', () => {
    it('when removed, then 204 without a body, and it is gone (404 on get and on a second remove)', async () => {
      const number = phone();
      await add({ phone_number: number, agent_id: AGENT });
      const res = await one(number, 'delete');
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect((await one(number)).status).toBe(404);
      expect((await one(number, 'delete')).status).toBe(404);
    });
  });
});

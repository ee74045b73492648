import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  CAPABILITY_TTL_SUPPORTED_MS,
  CAPABILITY_TTL_UNSUPPORTED_MS,
  createCapabilityChecker,
} from '../src/capability/index.js';
import { API_KEY, SERVICE_ACCOUNT, startTestRcs, type TestRcs } from './support.js';

const CAPABLE = '+447700900123';
const NOT_CAPABLE = '+447700900999';
const HOUR = 3600_000;

describe('capability check (spec 2.5, 4.5 rule 2)', () => {
  let rcs: TestRcs;

  beforeAll(async () => {
    rcs = await startTestRcs();
  });
  afterAll(async () => {
    await rcs?.stop();
  });
  beforeEach(async () => {
    await rcs.pool.query(`DELETE FROM "rcs"."capabilities"`);
  });

  const checks = async () =>
    (await rcs.rbmControl('GET', '/stats')).body.capabilityChecks as number;

  describe('the checker, with an injected clock', () => {
    let clock: Date;
    const checker = () => {
      const rbm = rcs.rbmClients();
      return createCapabilityChecker({ pool: rcs.pool, rbm, now: () => clock });
    };

    beforeAll(async () => {
      await rcs.agent('cap-clock', [], { credentials: SERVICE_ACCOUNT });
    });
    beforeEach(() => {
      clock = new Date('2026-11-24T12:00:00.000Z');
    });

    it('when a capable phone is checked, then RBM is asked once and the answer reused for 7 days', async () => {
      const check = checker();
      const before = await checks();
      const first = await check.check({ agentId: 'cap-clock', phone: CAPABLE });
      expect(first).toEqual({
        rcsSupported: true,
        features: [
          'RICHCARD',
          'ACTION_CREATE_CALENDAR_EVENT',
          'ACTION_DIAL',
          'ACTION_OPEN_URL',
          'ACTION_SHARE_LOCATION',
          'ACTION_VIEW_LOCATION',
        ],
        cached: false,
        checkedAt: clock,
      });
      clock = new Date(clock.getTime() + CAPABILITY_TTL_SUPPORTED_MS - 1);
      const again = await check.check({ agentId: 'cap-clock', phone: CAPABLE });
      expect(again).toEqual({ ...first, cached: true });
      expect(await checks()).toBe(before + 1);
      clock = new Date(first.checkedAt.getTime() + CAPABILITY_TTL_SUPPORTED_MS);
      const expired = await check.check({ agentId: 'cap-clock', phone: CAPABLE });
      expect(expired).toMatchObject({ cached: false, checkedAt: clock });
      expect(await checks()).toBe(before + 2);
    });

    it('when a phone is not capable, then the answer is reused for 24 hours only', async () => {
      const check = checker();
      const before = await checks();
      const first = await check.check({ agentId: 'cap-clock', phone: NOT_CAPABLE });
      expect(first).toEqual({ rcsSupported: false, features: [], cached: false, checkedAt: clock });
      clock = new Date(clock.getTime() + CAPABILITY_TTL_UNSUPPORTED_MS - 1);
      expect(await check.check({ agentId: 'cap-clock', phone: NOT_CAPABLE })).toMatchObject({
        cached: true,
      });
      clock = new Date(first.checkedAt.getTime() + CAPABILITY_TTL_UNSUPPORTED_MS);
      expect(await check.check({ agentId: 'cap-clock', phone: NOT_CAPABLE })).toMatchObject({
        cached: false,
      });
      expect(await checks()).toBe(before + 2);
      expect(CAPABILITY_TTL_UNSUPPORTED_MS).toBe(24 * HOUR);
      expect(CAPABILITY_TTL_SUPPORTED_MS).toBe(7 * 24 * HOUR);
    });

    it('when force_refresh, then RBM is asked although the cache is fresh, and the new answer replaces it', async () => {
      const check = checker();
      await check.check({ agentId: 'cap-clock', phone: CAPABLE });
      await rcs.rbmControl('PUT', `/devices/${encodeURIComponent(CAPABLE)}`, {
        capable: true,
        features: ['RICHCARD_CAROUSEL', 'ACTION_DIAL', 'REVOCATION'],
      });
      clock = new Date(clock.getTime() + HOUR);
      const refreshed = await check.check({
        agentId: 'cap-clock',
        phone: CAPABLE,
        forceRefresh: true,
      });
      expect(refreshed).toEqual({
        rcsSupported: true,
        features: ['RICHCARD', 'ACTION_DIAL'],
        cached: false,
        checkedAt: clock,
      });
      expect(await check.check({ agentId: 'cap-clock', phone: CAPABLE })).toEqual({
        ...refreshed,
        cached: true,
      });
      await rcs.rbmControl('DELETE', `/devices/${encodeURIComponent(CAPABLE)}`);
    });
  });

  describe('GET /rcs/v1/capabilities', () => {
    const get = (name: string, query: string, key = API_KEY) =>
      rcs.raw().get(`/rcs/v1/capabilities?${query}`).set('x-api-key', key).set('x-client-id', name);
    const q = (phone: string, agent: string, extra = '') =>
      `phone=${encodeURIComponent(phone)}&agent_id=${agent}${extra}`;

    it('when two clients ask about one phone, then the second answer comes from the shared cache', async () => {
      const one = await rcs.publishAccount(rcs.account());
      const two = await rcs.publishAccount(rcs.account());
      await rcs.agent('cap-shared', [one, two], { credentials: SERVICE_ACCOUNT });
      const before = await checks();
      const first = await get(one.name, q(CAPABLE, 'cap-shared'));
      expect(first.status).toBe(200);
      expect(first.body).toEqual({
        rcs_supported: true,
        phone_number: CAPABLE,
        features: expect.arrayContaining(['RICHCARD', 'ACTION_DIAL']),
        cached: false,
        checked_at: expect.any(String),
      });
      const second = await get(two.name, q(CAPABLE, 'cap-shared'));
      expect(second.body).toEqual({ ...first.body, cached: true });
      expect(await checks()).toBe(before + 1);
      const forced = await get(two.name, q(CAPABLE, 'cap-shared', '&force_refresh=true'));
      expect(forced.body.cached).toBe(false);
      expect(await checks()).toBe(before + 2);
      const notForced = await get(two.name, q(CAPABLE, 'cap-shared', '&force_refresh=false'));
      expect(notForced.body.cached).toBe(true);
    });

    it('when the phone is not RCS-capable, then rcs_supported false and no features', async () => {
      const acct = await rcs.publishAccount(rcs.account());
      await rcs.agent('cap-not', [acct], { credentials: SERVICE_ACCOUNT });
      const res = await get(acct.name, q(NOT_CAPABLE, 'cap-not'));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        rcs_supported: false,
        phone_number: NOT_CAPABLE,
        features: [],
        cached: false,
      });
    });

    it('when a parameter is missing or wrong, then 400 naming it', async () => {
      const acct = await rcs.publishAccount(rcs.account());
      await rcs.agent('cap-bad', [acct], { credentials: SERVICE_ACCOUNT });
      const cases: [string, string][] = [
        ['agent_id=cap-bad', 'phone'],
        [`phone=${encodeURIComponent(CAPABLE)}`, 'agent_id'],
        [q('0044770090', 'cap-bad'), 'phone'],
        [q(CAPABLE, 'cap-bad', '&force_refresh=yes'), 'force_refresh'],
        [q(CAPABLE, 'no-such-agent'), 'agent_id'],
      ];
      for (const [query, field] of cases) {
        const res = await get(acct.name, query);
        expect(res.status, query).toBe(400);
        expect(res.body.code).toBe('VALIDATION_ERROR');
        expect(res.body.details.errors).toContainEqual(
          expect.objectContaining({ loc: ['query', field] }),
        );
      }
    });

    // Issue 23: these passed the document, then the RBM client refused them by throwing (500).
    it.each(['+46', '+999', '+46701', '+123456'])(
      'when phone is %j (short of the 7 digits of E.164), then 400 naming phone, not a 500',
      async (phone) => {
        const acct = await rcs.publishAccount(rcs.account());
        await rcs.agent(`cap-short-${phone.length}`, [acct], { credentials: SERVICE_ACCOUNT });
        const res = await get(acct.name, q(phone, `cap-short-${phone.length}`));
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('VALIDATION_ERROR');
        expect(res.body.details.errors).toEqual([
          expect.objectContaining({ loc: ['query', 'phone'], type: 'pattern' }),
        ]);
      },
    );

    it('when the credentials are missing, then 401; an agent the account may not use is 403', async () => {
      const acct = await rcs.publishAccount(rcs.account());
      await rcs.agent('cap-other', [], { credentials: SERVICE_ACCOUNT });
      expect((await rcs.raw().get(`/rcs/v1/capabilities?${q(CAPABLE, 'cap-other')}`)).status).toBe(
        401,
      );
      const res = await get(acct.name, q(CAPABLE, 'cap-other'));
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('FORBIDDEN');
    });

    it('when the agent is conversational, then 501 NOT_IMPLEMENTED', async () => {
      const acct = await rcs.publishAccount(rcs.account());
      await rcs.agent('cap-conv', [acct], { kind: 'conversational', credentials: SERVICE_ACCOUNT });
      const res = await get(acct.name, q(CAPABLE, 'cap-conv'));
      expect(res.status).toBe(501);
      expect(res.body).toEqual({
        code: 'NOT_IMPLEMENTED',
        message: 'Conversational agents are not supported yet',
        details: {},
      });
    });

    it('when the agent has no RBM credentials, then 503 naming it, without Retry-After', async () => {
      const acct = await rcs.publishAccount(rcs.account());
      await rcs.agent('cap-nocreds', [acct]);
      const res = await get(acct.name, q(CAPABLE, 'cap-nocreds'));
      expect(res.status).toBe(503);
      expect(res.body).toEqual({
        code: 'SERVICE_UNAVAILABLE',
        message: expect.stringContaining('no RBM credentials'),
        details: {},
      });
      expect(res.headers['retry-after']).toBeUndefined();
    });

    it('when RBM is unreachable, then 503 with Retry-After; a cached answer is still given', async () => {
      const acct = await rcs.publishAccount(rcs.account());
      await rcs.agent('cap-down', [acct], { credentials: SERVICE_ACCOUNT });
      const cachedPhone = '+447700900555';
      expect((await get(acct.name, q(cachedPhone, 'cap-down'))).status).toBe(200);
      await rcs.rbmDown();
      try {
        const res = await get(acct.name, q(CAPABLE, 'cap-down'));
        expect(res.status).toBe(503);
        expect(res.body).toEqual({
          code: 'SERVICE_UNAVAILABLE',
          message: 'RBM platform unavailable',
          details: {},
        });
        expect(res.headers['retry-after']).toBe('5');
        const cached = await get(acct.name, q(cachedPhone, 'cap-down'));
        expect(cached.status).toBe(200);
        expect(cached.body.cached).toBe(true);
      } finally {
        await rcs.rbmUp();
      }
    });
  });
});

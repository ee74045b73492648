import type { AccountState } from '@msg/contracts';
import { Topics } from '@msg/contracts';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRcs, type TestRcs } from './support.js';

const AGENT = 'fallback-agent';
const FALLBACK = { sender: 'Acme', text: 'Your parcel is ready' };

describe('SMS fallback enablement and ttl (beyond the specification)', () => {
  let rcs: TestRcs;
  let enabled: AccountState;
  let disabled: AccountState;

  const send = (acct: AccountState, overrides: object = {}) =>
    rcs.send(acct, {
      recipient: '+46701740605',
      agent_id: AGENT,
      message: { text: 'Hello' },
      ...overrides,
    });

  /** Sends as the enabled account; expects 400 and answers its errors. */
  async function refused(overrides: object) {
    const res = await send(enabled, overrides);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    return res.body.details.errors as { loc: string[]; msg: string; type: string }[];
  }

  beforeAll(async () => {
    rcs = await startTestRcs({ perMinute: 10_000 });
    // Numbers must be registered to be a sender; alphanumerics are free (none registered).
    enabled = await rcs.publishAccount(
      rcs.account({ name: 'fallback-on', senderIds: ['72456', '+46701234567'] }),
    );
    disabled = await rcs.publishAccount(rcs.account({ name: 'fallback-off' }));
    await rcs.agent(AGENT, [enabled, disabled]);
    await rcs.smsFallback(enabled, true);
  });

  afterAll(async () => {
    await rcs?.stop();
  });

  describe('operator API /internal/v1/account-settings', () => {
    it('when no token is given, then 401 and nothing changes', async () => {
      const res = await request(rcs.app)
        .patch(`/internal/v1/account-settings/${disabled.id}`)
        .send({ sms_fallback: true });
      expect(res.status).toBe(401);
      const shown = await rcs.admin(
        request(rcs.app).get(`/internal/v1/account-settings/${disabled.id}`),
      );
      expect(shown.body).toEqual({
        account_id: disabled.id,
        sms_fallback: false,
        updated_at: null,
      });
    });

    it('when an account is enabled, then get and list show it; disabled again, it is off', async () => {
      const other = (await rcs.publishAccount(rcs.account())).id;
      const on = await rcs
        .admin(request(rcs.app).patch(`/internal/v1/account-settings/${other}`))
        .send({ sms_fallback: true });
      expect(on.status).toBe(200);
      expect(on.body).toEqual({
        account_id: other,
        sms_fallback: true,
        updated_at: expect.any(String),
      });
      const list = await rcs.admin(request(rcs.app).get('/internal/v1/account-settings'));
      expect(list.body.accounts).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ account_id: other, sms_fallback: true }),
        ]),
      );
      const off = await rcs
        .admin(request(rcs.app).patch(`/internal/v1/account-settings/${other}`))
        .send({ sms_fallback: false });
      expect(off.body.sms_fallback).toBe(false);
    });

    it('when fallback is enabled by the account name, then it is stored under the id and the account may send with sms_fallback', async () => {
      const acct = await rcs.publishAccount(rcs.account({ name: 'Fallback-By-Name' }));
      await rcs.admin(rcs.raw().put(`/internal/v1/agents/${AGENT}/accounts/${acct.id}`));
      const on = await rcs
        .admin(request(rcs.app).patch('/internal/v1/account-settings/fallback-by-name'))
        .send({ sms_fallback: true });
      expect(on.status).toBe(200);
      expect(on.body).toMatchObject({ account_id: acct.id, sms_fallback: true });
      const shown = await rcs.admin(
        request(rcs.app).get('/internal/v1/account-settings/FALLBACK-BY-NAME'),
      );
      expect(shown.body).toMatchObject({ account_id: acct.id, sms_fallback: true });
      expect((await send(acct, { sms_fallback: FALLBACK })).status).toBe(202);
    });

    it('when the account is neither an id nor a name the service knows, then 404 naming it and nothing is stored', async () => {
      for (const req of [
        request(rcs.app)
          .patch('/internal/v1/account-settings/acme-typo')
          .send({ sms_fallback: true }),
        request(rcs.app).get('/internal/v1/account-settings/acme-typo'),
      ]) {
        const res = await rcs.admin(req);
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({
          code: 'NOT_FOUND',
          message: expect.stringContaining('acme-typo'),
        });
      }
      const list = await rcs.admin(request(rcs.app).get('/internal/v1/account-settings'));
      expect(list.body.accounts.map((a: { account_id: string }) => a.account_id)).not.toContain(
        'acme-typo',
      );
    });

    it('when sms_fallback is not a boolean or missing, then 400 naming it', async () => {
      for (const body of [{ sms_fallback: 'yes' }, {}]) {
        const res = await rcs
          .admin(request(rcs.app).patch(`/internal/v1/account-settings/${disabled.id}`))
          .send(body);
        expect(res.status).toBe(400);
        expect(res.body.details.errors[0].loc).toEqual(['body', 'sms_fallback']);
      }
    });
  });

  describe('POST /rcs/v1/messages with sms_fallback', () => {
    it('when the account has no fallback enabled, then 400 not_enabled naming sms_fallback', async () => {
      const res = await send(disabled, { sms_fallback: FALLBACK });
      expect(res.status).toBe(400);
      expect(res.body.details.errors).toEqual([
        { loc: ['body', 'sms_fallback'], msg: expect.any(String), type: 'not_enabled' },
      ]);
    });

    it('when the account has fallback enabled, then 202, stored, and carried on rcs.outbound.v1', async () => {
      const res = await send(enabled, { sms_fallback: FALLBACK, ttl: 3600 });
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      const [queued] = await rcs.publishedAbout(Topics.rcsOutbound, res.body.message_id);
      expect(queued?.value.payload).toMatchObject({ smsFallback: FALLBACK, ttlSeconds: 3600 });
      const { rows } = await rcs.pool.query(
        `SELECT "sms_fallback", "ttl_seconds", "expires_at", "created_at" FROM "rcs"."messages" WHERE "id" = $1`,
        [res.body.message_id],
      );
      expect(rows[0]).toMatchObject({ sms_fallback: FALLBACK, ttl_seconds: 3600 });
      expect(rows[0].expires_at.getTime() - rows[0].created_at.getTime()).toBe(3_600_000);
    });

    it('when fallback is given without ttl, then it expires after RCS_SMS_FALLBACK_TTL (10 min)', async () => {
      const res = await send(enabled, { sms_fallback: FALLBACK });
      const [queued] = await rcs.publishedAbout(Topics.rcsOutbound, res.body.message_id);
      expect(queued?.value.payload).toMatchObject({ smsFallback: FALLBACK, ttlSeconds: null });
      const { rows } = await rcs.pool.query(
        `SELECT "expires_at", "created_at" FROM "rcs"."messages" WHERE "id" = $1`,
        [res.body.message_id],
      );
      expect(rows[0].expires_at.getTime() - rows[0].created_at.getTime()).toBe(600_000);
    });

    it('when neither fallback nor ttl is given, then the payload says none and nothing expires', async () => {
      const res = await send(enabled, { sms_fallback: null });
      const [queued] = await rcs.publishedAbout(Topics.rcsOutbound, res.body.message_id);
      expect(queued?.value.payload).toMatchObject({ smsFallback: null, ttlSeconds: null });
      const { rows } = await rcs.pool.query(
        `SELECT "expires_at" FROM "rcs"."messages" WHERE "id" = $1`,
        [res.body.message_id],
      );
      expect(rows[0].expires_at).toBeNull();
    });

    it.each([
      ['empty sender', { sender: '', text: 'x' }, 'sender'],
      [
        'alphanumeric sender over 11',
        { sender: 'AcmeShipping', text: 'x' },
        'alphanumeric_too_long',
      ],
      ['forbidden character', { sender: 'Ac!me', text: 'x' }, 'alphanumeric_characters'],
      ['space at an edge', { sender: ' Acme', text: 'x' }, 'alphanumeric_space_at_edge'],
      ['international not E.164', { sender: '+0461234', text: 'x' }, 'international_not_e164'],
      ['shortcode of 2 digits', { sender: '12', text: 'x' }, 'shortcode_too_short'],
      ['sender over 16 characters', { sender: 'A'.repeat(17), text: 'x' }, 'sender'],
      ['empty text', { sender: 'Acme', text: '' }, 'text'],
      ['UCS-2 text over 10 parts', { sender: 'Acme', text: 'ж'.repeat(671) }, 'too_many_parts'],
      ['GSM-7 text over 1530', { sender: 'Acme', text: 'a'.repeat(1531) }, 'text'],
      ['sender missing', { text: 'x' }, 'sms_fallback'],
    ])('when the fallback has %s, then 400 naming the member', async (_, fallback, rule) => {
      const errors = await refused({ sms_fallback: fallback });
      expect(errors).toHaveLength(1);
      const [error] = errors;
      if (rule === 'sender' || rule === 'text' || rule === 'sms_fallback') {
        expect(error?.loc.slice(0, 2)).toEqual(['body', 'sms_fallback']);
        if (rule !== 'sms_fallback') expect(error?.loc[2]).toBe(rule);
      } else {
        expect(error?.type).toBe(rule);
        expect(error?.loc[0]).toBe('body');
        expect(error?.loc[1]).toBe('sms_fallback');
      }
    });

    it.each([
      ['a shortcode', '72456'],
      ['an international number', '+46701234567'],
      ['11 alphanumerics with Swedish letters', 'Åhlens Shop'],
    ])('when the sender is %s, then 202', async (_, sender) => {
      expect((await send(enabled, { sms_fallback: { sender, text: 'Hej' } })).status).toBe(202);
    });

    it('when an account with registered sender id ACME falls back from BANKID, then 400 not_registered naming sms_fallback.sender; from acme, 202 (issue 23)', async () => {
      const acme = await rcs.publishAccount(rcs.account({ senderIds: ['ACME'] }));
      await rcs.agent('acme-agent', [acme]);
      await rcs.smsFallback(acme, true);
      const body = (sender: string) => ({
        recipient: '+46701740605',
        agent_id: 'acme-agent',
        message: { text: 'Hi' },
        sms_fallback: { sender, text: 'Hej' },
      });
      const res = await rcs.send(acme, body('BANKID'));
      expect(res.status).toBe(400);
      expect(res.body.details.errors).toEqual([
        expect.objectContaining({
          loc: ['body', 'sms_fallback', 'sender'],
          type: 'not_registered',
        }),
      ]);
      expect((await rcs.send(acme, body('+46701234567'))).body.details.errors[0].type).toBe(
        'not_registered',
      );
      expect((await rcs.send(acme, body('acme'))).status).toBe(202);
    });

    it('when the operator protects a name, then a fallback sender that is it or looks like it is 400 protected (issue 23)', async () => {
      await rcs.publishProtectedSenders(['BankID']);
      for (const sender of ['BankID', 'B4NK ID']) {
        const [error, ...more] = await refused({ sms_fallback: { sender, text: 'x' } });
        expect(more).toEqual([]);
        expect(error).toMatchObject({ loc: ['body', 'sms_fallback', 'sender'], type: 'protected' });
      }
    });

    it('when the text is exactly 10 UCS-2 parts (670 characters), then 202', async () => {
      const res = await send(enabled, { sms_fallback: { sender: 'Acme', text: 'ж'.repeat(670) } });
      expect(res.status).toBe(202);
    });

    it('when the account is disabled again, then sms_fallback is refused again', async () => {
      const acct = await rcs.publishAccount(rcs.account({ name: 'fallback-toggle' }));
      await rcs.agent('toggle-agent', [acct]);
      await rcs.smsFallback(acct, true);
      const body = {
        recipient: '+46701740605',
        agent_id: 'toggle-agent',
        message: { text: 'Hi' },
        sms_fallback: FALLBACK,
      };
      expect((await rcs.send(acct, body)).status).toBe(202);
      await rcs.smsFallback(acct, false);
      expect((await rcs.send(acct, body)).body.details.errors[0].type).toBe('not_enabled');
    });
  });

  describe('ttl', () => {
    it.each([
      [59, false],
      [60, true],
      [2_592_000, true],
      [2_592_001, false],
      [90.5, false],
      ['600', false],
      [null, true],
    ])('when ttl is %s, then accepted: %s', async (ttl, ok) => {
      const res = await send(disabled, { ttl });
      if (ok) expect(res.status, JSON.stringify(res.body)).toBe(202);
      else {
        expect(res.status).toBe(400);
        expect(res.body.details.errors.map((e: { loc: string[] }) => e.loc)).toEqual([
          ['body', 'ttl'],
        ]);
      }
    });

    it('when ttl is given without fallback, then it is carried as ttlSeconds and the message expires then', async () => {
      const res = await send(disabled, { ttl: 120 });
      const [queued] = await rcs.publishedAbout(Topics.rcsOutbound, res.body.message_id);
      expect(queued?.value.payload).toMatchObject({ smsFallback: null, ttlSeconds: 120 });
      const { rows } = await rcs.pool.query(
        `SELECT "expires_at", "created_at" FROM "rcs"."messages" WHERE "id" = $1`,
        [res.body.message_id],
      );
      expect(rows[0].expires_at.getTime() - rows[0].created_at.getTime()).toBe(120_000);
    });
  });
});

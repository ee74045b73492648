import type { AccountState } from '@msg/contracts';
import { type CallbackReceiver, startCallbackReceiver } from '@msg/testing';
import type request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY, startTestRcs, type TestRcs } from './support.js';
import { signatureValid } from './webhook-receiver.js';

const HEX64 = /^[0-9a-f]{64}$/;

describe('RCS webhooks (spec 2.5 webhook configuration, 4.5 rules 3-7, 5 rules 4-5)', () => {
  let rcs: TestRcs;
  let owner: AccountState;
  let stranger: AccountState;
  let agentSeq = 0;
  const receivers: CallbackReceiver[] = [];

  beforeAll(async () => {
    rcs = await startTestRcs({
      perMinute: 100_000,
      // Tests deliver to 127.0.0.1; a short deadline stands in for the 10 s one.
      env: { RCS_WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', RCS_WEBHOOK_TIMEOUT_MS: '500' },
    });
    // The notifier signs the test event (Standard Webhooks) with the owner's callback secret.
    await rcs.startNotifier();
    owner = await rcs.publishAccount(rcs.account());
    stranger = await rcs.publishAccount(rcs.account());
  });

  afterAll(async () => {
    await rcs?.stop();
  });

  afterEach(async () => {
    for (const receiver of receivers.splice(0)) await receiver.close();
  });

  function as(acct: AccountState, req: request.Test): request.Test {
    return req.set('x-api-key', API_KEY).set('x-client-id', acct.name);
  }
  const get = (path: string, acct = owner) => as(acct, rcs.raw().get(path));
  const post = (path: string, body?: object, acct = owner) =>
    as(acct, rcs.raw().post(path)).send(body);
  const patch = (path: string, body: object, acct = owner) =>
    as(acct, rcs.raw().patch(path)).send(body);
  const del = (path: string, acct = owner) => as(acct, rcs.raw().delete(path));

  /** A new agent the owner may send as. */
  async function newAgent(): Promise<string> {
    agentSeq += 1;
    const id = `wh-agent-${agentSeq}`;
    await rcs.agent(id, [owner]);
    return id;
  }

  async function receiver(reply?: Parameters<typeof startCallbackReceiver>[0]) {
    const started = await startCallbackReceiver(reply);
    receivers.push(started);
    return started;
  }

  async function created(agentId: string, extra: object = {}) {
    const res = await post('/v1/webhooks', {
      agent_id: agentId,
      webhook_url: `https://hooks.example.com/${agentId}/${Math.random()}`,
      ...extra,
    });
    expect(res.status).toBe(201);
    return res.body as { id: string; webhook_secret: string; webhook_url: string };
  }

  function expectValidation(res: request.Response, field: string, type?: string) {
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.message).toBe('Request validation failed');
    const errors = res.body.details.errors as { loc: string[]; type: string }[];
    expect(
      errors.some((e) => e.loc.includes(field) && (type === undefined || e.type === type)),
    ).toBe(true);
  }

  describe('create, get, list', () => {
    it('when a webhook is created with only agent_id and webhook_url, then 201 with the defaults and a 64-hex secret that get and list never show', async () => {
      const agent = await newAgent();
      const res = await post('/v1/webhooks', {
        agent_id: agent,
        webhook_url: 'https://hooks.example.com/a',
      });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        agent_id: agent,
        webhook_url: 'https://hooks.example.com/a',
        description: null,
        enabled_events: ['*'],
        is_enabled: true,
        created_at: expect.any(String),
        updated_at: expect.any(String),
        webhook_secret: expect.stringMatching(HEX64),
      });
      const one = await get(`/v1/webhooks/${res.body.id}`);
      expect(one.status).toBe(200);
      expect(one.body).not.toHaveProperty('webhook_secret');
      expect(one.body.webhook_url).toBe('https://hooks.example.com/a');
      const list = await get(`/v1/webhooks?agent_id=${agent}`);
      expect(list.status).toBe(200);
      expect(list.body).toHaveLength(1);
      expect(list.body[0]).not.toHaveProperty('webhook_secret');
    });

    it('when the secret is looked for in the database, then it is not there in clear (stored encrypted)', async () => {
      const hook = await created(await newAgent());
      const { rows } = await rcs.runtime.pool.query<{ secret: string }>(
        'SELECT "secret" FROM "rcs"."webhooks" WHERE "id" = $1',
        [hook.id],
      );
      expect(rows[0]?.secret).toBeDefined();
      expect(rows[0]?.secret).not.toContain(hook.webhook_secret);
    });

    it('when any other authenticated client views the webhook, then it may (rule 3), but may not change, test or delete it (403)', async () => {
      const hook = await created(await newAgent());
      expect((await get(`/v1/webhooks/${hook.id}`, stranger)).status).toBe(200);
      expect((await patch(`/v1/webhooks/${hook.id}`, { description: 'x' }, stranger)).status).toBe(
        403,
      );
      expect((await post(`/v1/webhooks/${hook.id}/disable`, undefined, stranger)).status).toBe(403);
      expect((await post(`/v1/webhooks/${hook.id}/test`, undefined, stranger)).status).toBe(403);
      expect(
        (await post(`/v1/webhooks/${hook.id}/regenerate-secret`, undefined, stranger)).status,
      ).toBe(403);
      expect((await del(`/v1/webhooks/${hook.id}`, stranger)).status).toBe(403);
    });

    it('when a client that may not send as the agent creates a webhook for it, then 403; for an unknown agent, 400 naming agent_id', async () => {
      const agent = await newAgent();
      const res = await post(
        '/v1/webhooks',
        { agent_id: agent, webhook_url: 'https://x.example.com/' },
        stranger,
      );
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ code: 'FORBIDDEN', message: expect.any(String), details: {} });
      expectValidation(
        await post('/v1/webhooks', {
          agent_id: 'no-such-agent',
          webhook_url: 'https://x.example.com/',
        }),
        'agent_id',
        'unknown_agent',
      );
    });

    it('when the credentials are missing, then 401', async () => {
      expect((await rcs.raw().get('/v1/webhooks?agent_id=a')).status).toBe(401);
    });

    it('when an agent has 5 webhooks, then a sixth is 400 naming agent_id (rule 4)', async () => {
      const agent = await newAgent();
      for (let i = 0; i < 5; i++) await created(agent);
      const res = await post('/v1/webhooks', {
        agent_id: agent,
        webhook_url: 'https://hooks.example.com/sixth',
      });
      expectValidation(res, 'agent_id', 'webhook_limit');
      expect((await get(`/v1/webhooks?agent_id=${agent}`)).body).toHaveLength(5);
    });

    it('when the same URL is registered twice for an agent, then 409; for another agent it is fine', async () => {
      const agent = await newAgent();
      const url = 'https://hooks.example.com/same';
      expect((await post('/v1/webhooks', { agent_id: agent, webhook_url: url })).status).toBe(201);
      const again = await post('/v1/webhooks', { agent_id: agent, webhook_url: url });
      expect(again.status).toBe(409);
      expect(again.body).toEqual({ code: 'CONFLICT', message: expect.any(String), details: {} });
      expect(
        (await post('/v1/webhooks', { agent_id: await newAgent(), webhook_url: url })).status,
      ).toBe(201);
    });

    it.each([
      ['webhook_url', { webhook_url: 'ftp://hooks.example.com/' }],
      ['webhook_url', { webhook_url: 'not a url' }],
      ['webhook_url', { webhook_url: `https://h.example.com/${'a'.repeat(2083)}` }],
      ['webhook_url', { webhook_url: '' }],
      ['description', { description: 'd'.repeat(256) }],
      ['enabled_events', { enabled_events: ['rcs.in.nothing'] }],
      ['is_enabled', { is_enabled: 'yes' }],
      ['agent_id', { agent_id: 'a'.repeat(101) }],
      ['agent_id', { agent_id: '' }],
    ])('when %s breaks its rule (%j), then 400 naming it', async (field, override) => {
      const res = await post('/v1/webhooks', {
        agent_id: 'wh-agent-1',
        webhook_url: 'https://hooks.example.com/bounds',
        ...override,
      });
      expectValidation(res, field);
    });

    it('when agent_id or webhook_url is missing, then 400 naming it', async () => {
      expectValidation(await post('/v1/webhooks', { agent_id: 'a' }), 'webhook_url');
      expectValidation(
        await post('/v1/webhooks', { webhook_url: 'https://h.example.com/' }),
        'agent_id',
      );
    });

    it('when the description is exactly 255 characters and the URL exactly 2083, then it is accepted', async () => {
      const url = 'https://h.example.com/';
      const hook = await created(await newAgent(), {
        description: 'd'.repeat(255),
        webhook_url: url + 'a'.repeat(2083 - url.length),
      });
      expect(hook.webhook_url).toHaveLength(2083);
    });

    it('when the id is unknown, then 404; when it is not a uuid, then 400 naming webhook_id', async () => {
      const unknown = '00000000-0000-4000-8000-000000000000';
      expect((await get(`/v1/webhooks/${unknown}`)).status).toBe(404);
      expect((await patch(`/v1/webhooks/${unknown}`, { description: 'x' })).status).toBe(404);
      expect((await del(`/v1/webhooks/${unknown}`)).status).toBe(404);
      expect((await post(`/v1/webhooks/${unknown}/test`)).status).toBe(404);
      expectValidation(await get('/v1/webhooks/not-a-uuid'), 'webhook_id');
    });
  });

  describe('enabled_events: both vocabularies of rule 5', () => {
    it('when created with the second vocabulary, then it is stored in the first', async () => {
      const hook = await created(await newAgent(), {
        enabled_events: [
          'message.delivered',
          'message.read',
          'user.opted_out',
          'user.unsubscribed',
        ],
      });
      const res = await get(`/v1/webhooks/${hook.id}`);
      expect(res.body.enabled_events).toEqual([
        'rcs.out.delivered',
        'rcs.out.read',
        'rcs.sub.unsubscribed',
      ]);
    });

    it('when updated with the first vocabulary, or with *, then that is stored', async () => {
      const hook = await created(await newAgent());
      const first = await patch(`/v1/webhooks/${hook.id}`, {
        enabled_events: ['rcs.in.text', 'rcs.out.failed'],
      });
      expect(first.status).toBe(200);
      expect(first.body.enabled_events).toEqual(['rcs.in.text', 'rcs.out.failed']);
      const all = await patch(`/v1/webhooks/${hook.id}`, { enabled_events: ['rcs.in.text', '*'] });
      expect(all.body.enabled_events).toEqual(['*']);
    });
  });

  describe('update, disable, enable, delete', () => {
    it('when PATCH names some members, then only those change; null clears the description', async () => {
      const hook = await created(await newAgent(), { description: 'before' });
      const res = await patch(`/v1/webhooks/${hook.id}`, {
        webhook_url: 'https://hooks.example.com/moved',
        is_enabled: false,
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        webhook_url: 'https://hooks.example.com/moved',
        is_enabled: false,
        description: 'before',
        enabled_events: ['*'],
      });
      expect(res.body).not.toHaveProperty('webhook_secret');
      const cleared = await patch(`/v1/webhooks/${hook.id}`, { description: null });
      expect(cleared.body.description).toBeNull();
    });

    it.each([
      ['agent_id', { agent_id: 'another-agent' }],
      ['webhook_secret', { webhook_secret: 'a'.repeat(64) }],
    ])(
      'when PATCH sends %s, then 400 immutable and nothing changes (rule 6)',
      async (field, body) => {
        const agent = await newAgent();
        const hook = await created(agent);
        const res = await patch(`/v1/webhooks/${hook.id}`, { ...body, description: 'changed' });
        expectValidation(res, field, 'immutable');
        const after = await get(`/v1/webhooks/${hook.id}`);
        expect(after.body.agent_id).toBe(agent);
        expect(after.body.description).toBeNull();
      },
    );

    it('when PATCH moves the URL onto another webhook of the agent, then 409', async () => {
      const agent = await newAgent();
      const a = await created(agent);
      const b = await created(agent);
      expect((await patch(`/v1/webhooks/${b.id}`, { webhook_url: a.webhook_url })).status).toBe(
        409,
      );
    });

    it('when disabled and enabled, then each returns the configuration with is_enabled set', async () => {
      const hook = await created(await newAgent());
      const off = await post(`/v1/webhooks/${hook.id}/disable`);
      expect(off.status).toBe(200);
      expect(off.body).toMatchObject({ id: hook.id, is_enabled: false });
      const on = await post(`/v1/webhooks/${hook.id}/enable`);
      expect(on.body).toMatchObject({ id: hook.id, is_enabled: true });
    });

    it('when deleted, then 204 without a body and it is gone (404)', async () => {
      const hook = await created(await newAgent());
      const res = await del(`/v1/webhooks/${hook.id}`);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect((await get(`/v1/webhooks/${hook.id}`)).status).toBe(404);
    });
  });

  describe('test operation and regeneration (rule 7, 5 rules 4-5)', () => {
    it.each([200, 201, 202, 204])(
      'when the endpoint answers %i, then success with the status, and the event is signed with the secret',
      async (status) => {
        const target = await receiver((res) => res.writeHead(status).end());
        const agent = await newAgent();
        const hook = await created(agent, { webhook_url: `${target.url}/hook` });
        const res = await post(`/v1/webhooks/${hook.id}/test`);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({
          success: true,
          status_code: status,
          response_time_ms: expect.any(Number),
          error_message: null,
          test_event_sent: { event_type: 'webhook.test', timestamp: expect.any(String) },
        });
        const [got] = target.received;
        expect(got && signatureValid(hook.webhook_secret, got)).toBe(true);
        expect(got?.headers).toMatchObject({
          'webhook-id': expect.any(String),
          'webhook-timestamp': expect.stringMatching(/^\d+$/),
          'webhook-signature': expect.stringMatching(/^v1,/),
        });
        expect(got?.headers['content-type']).toBe('application/json');
        expect(JSON.parse(got?.body ?? '')).toEqual({
          event_type: 'webhook.test',
          timestamp: res.body.test_event_sent.timestamp,
          webhook_id: hook.id,
          agent_id: agent,
          message: expect.any(String),
        });
      },
    );

    it.each([203, 302, 400, 500])(
      'when the endpoint answers %i, then no success, with the status and an error message',
      async (status) => {
        const target = await receiver((res) => res.writeHead(status).end());
        const hook = await created(await newAgent(), { webhook_url: target.url });
        const res = await post(`/v1/webhooks/${hook.id}/test`);
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({
          success: false,
          status_code: status,
          error_message: expect.any(String),
        });
      },
    );

    it('when the endpoint does not answer within the deadline, then no success, no status, a timeout message', async () => {
      const target = await receiver(() => {}); // never answers
      const hook = await created(await newAgent(), { webhook_url: target.url });
      const res = await post(`/v1/webhooks/${hook.id}/test`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: false, status_code: null });
      expect(res.body.error_message).toMatch(/timeout|ETIMEDOUT/i);
    });

    it('when nothing listens, then no success and the connection error', async () => {
      const hook = await created(await newAgent(), { webhook_url: 'http://127.0.0.1:9/' });
      const res = await post(`/v1/webhooks/${hook.id}/test`);
      expect(res.body).toMatchObject({ success: false, status_code: null });
      expect(res.body.error_message).toMatch(/ECONNREFUSED/);
    });

    it('when the secret is regenerated, then the answer carries a new 64-hex secret and the old one no longer signs', async () => {
      const target = await receiver();
      const hook = await created(await newAgent(), { webhook_url: target.url });
      const res = await post(`/v1/webhooks/${hook.id}/regenerate-secret`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        id: hook.id,
        regenerated_at: expect.any(String),
        webhook_secret: expect.stringMatching(HEX64),
      });
      expect(res.body.webhook_secret).not.toBe(hook.webhook_secret);
      await post(`/v1/webhooks/${hook.id}/test`);
      const [got] = target.received;
      expect(got && signatureValid(res.body.webhook_secret, got)).toBe(true);
      expect(got && signatureValid(hook.webhook_secret, got)).toBe(false);
    });
  });
});

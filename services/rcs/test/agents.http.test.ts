import { createSecretBox, parseSecretBoxKey } from '@msg/auth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CREDENTIALS_KEY, startTestRcs, type TestRcs } from './support.js';

const KEY_JSON = {
  type: 'service_account',
  project_id: 'rbm-demo',
  client_email: 'agent@rbm-demo.iam.gserviceaccount.com',
  private_key: '-----BEGIN PRIVATE KEY-----\nMIIEsecret\n-----END PRIVATE KEY-----\n',
};

describe('operator agent API /internal/v1/agents', () => {
  let rcs: TestRcs;

  beforeAll(async () => {
    rcs = await startTestRcs();
  });

  afterAll(async () => {
    await rcs?.stop();
  });

  it('when no operator token is given, then 401', async () => {
    expect((await rcs.raw().get('/internal/v1/agents')).status).toBe(401);
  });

  it('when an agent is created with credentials, then they are stored sealed (whole) and never returned', async () => {
    const acct = await rcs.publishAccount(rcs.account());
    const agent = await rcs.agent('secret-agent', [acct], {
      credentials: KEY_JSON,
      use_case: 'AUTHENTICATION',
      launched: true,
    });
    expect(agent).toEqual({
      agent_id: 'secret-agent',
      display_name: 'Agent secret-agent',
      use_case: 'AUTHENTICATION',
      kind: 'business_messaging',
      launched: true,
      has_credentials: true,
      accounts: [acct.id],
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const { rows } = await rcs.pool.query<{ credentials: string }>(
      `SELECT "credentials" FROM "rcs"."agents" WHERE "id" = 'secret-agent'`,
    );
    const stored = rows[0]?.credentials as string;
    expect(stored).not.toContain('PRIVATE KEY');
    expect(stored).not.toContain('rbm-demo');
    // Unknown members are dropped elsewhere, never inside the key: it opens whole.
    const box = createSecretBox(parseSecretBoxKey(CREDENTIALS_KEY));
    expect(JSON.parse(box.open(stored))).toEqual(KEY_JSON);
  });

  it('when the id is taken, then 409; an unknown agent is 404', async () => {
    await rcs.agent('taken-agent', []);
    const again = await rcs.admin(rcs.raw().post('/internal/v1/agents')).send({
      agent_id: 'taken-agent',
      display_name: 'Again',
    });
    expect(again.status).toBe(409);
    expect((await rcs.admin(rcs.raw().get('/internal/v1/agents/nobody'))).status).toBe(404);
  });

  it('when the accounts are replaced, then only the new ones may send as the agent', async () => {
    const first = await rcs.publishAccount(rcs.account());
    const second = await rcs.publishAccount(rcs.account());
    await rcs.agent('moving-agent', [first]);
    const patched = await rcs
      .admin(rcs.raw().patch('/internal/v1/agents/moving-agent'))
      .send({ accounts: [second.id], display_name: 'Moved' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ accounts: [second.id], display_name: 'Moved' });
    const body = { recipient: '+46701740605', agent_id: 'moving-agent', message: { text: 'x' } };
    expect((await rcs.send(first, body)).status).toBe(403);
    expect((await rcs.send(second, body)).status).toBe(202);
  });

  it('when an agent is deleted, then sending as it is a 400 naming agent_id', async () => {
    const acct = await rcs.publishAccount(rcs.account());
    await rcs.agent('gone-agent', [acct]);
    expect((await rcs.admin(rcs.raw().delete('/internal/v1/agents/gone-agent'))).status).toBe(204);
    const res = await rcs.send(acct, {
      recipient: '+46701740605',
      agent_id: 'gone-agent',
      message: { text: 'x' },
    });
    expect(res.status).toBe(400);
    expect(res.body.details.errors[0].loc).toEqual(['body', 'agent_id']);
  });

  it('when the body breaks the rules, then 400 naming the member', async () => {
    const res = await rcs.admin(rcs.raw().post('/internal/v1/agents')).send({
      agent_id: 'bad agent',
      display_name: 'x',
      use_case: 'SPAM',
    });
    expect(res.status).toBe(400);
    const locs = res.body.details.errors.map((e: { loc: string[] }) => e.loc.join('.'));
    expect(locs).toEqual(expect.arrayContaining(['body.agent_id']));
    expect(locs.some((l: string) => l.startsWith('body.use_case'))).toBe(true);
  });
  it('when an agent is conversational, then sending as it is 501 NOT_IMPLEMENTED; back to business_messaging, 202', async () => {
    const acct = await rcs.publishAccount(rcs.account());
    const created = await rcs.agent('chat-agent', [acct], { kind: 'conversational' });
    expect(created.kind).toBe('conversational');
    const body = { recipient: '+46701740605', agent_id: 'chat-agent', message: { text: 'x' } };
    const refused = await rcs.send(acct, body);
    expect(refused.status).toBe(501);
    expect(refused.body).toEqual({
      code: 'NOT_IMPLEMENTED',
      message: 'Conversational agents are not supported yet',
      details: {},
    });
    // 403 comes first: an account that may not use the agent learns nothing about its kind.
    const stranger = await rcs.publishAccount(rcs.account());
    expect((await rcs.send(stranger, body)).status).toBe(403);
    const patched = await rcs
      .admin(rcs.raw().patch('/internal/v1/agents/chat-agent'))
      .send({ kind: 'business_messaging' });
    expect(patched.body.kind).toBe('business_messaging');
    expect((await rcs.send(acct, body)).status).toBe(202);
  });

  describe('accounts named as an operator names them (id, or name in any case)', () => {
    const body = (agentId: string) => ({
      recipient: '+46701740605',
      agent_id: agentId,
      message: { text: 'x' },
    });

    it('when an agent is created with accounts named by name, then their ids are stored and they may send', async () => {
      const acme = await rcs.publishAccount(rcs.account({ name: 'Acme-Named' }));
      const other = await rcs.publishAccount(rcs.account());
      const agent = await rcs.agentFor('named-agent', ['acme-named', other.id]);
      expect(agent.accounts).toEqual([acme.id, other.id].sort());
      expect((await rcs.send(acme, body('named-agent'))).status).toBe(202);
    });

    it('when an account is neither an id nor a name the service knows, then 400 naming each, and no agent is made', async () => {
      const known = await rcs.publishAccount(rcs.account());
      const res = await rcs.admin(rcs.raw().post('/internal/v1/agents')).send({
        agent_id: 'typo-agent',
        display_name: 'Typo',
        accounts: [known.name, 'acme-typo', 'nobody'],
      });
      expect(res.status).toBe(400);
      expect(res.body.details.errors).toEqual([
        {
          loc: ['body', 'accounts', '1'],
          msg: expect.stringContaining('acme-typo'),
          type: 'unknown_account',
        },
        {
          loc: ['body', 'accounts', '2'],
          msg: expect.stringContaining('nobody'),
          type: 'unknown_account',
        },
      ]);
      expect((await rcs.admin(rcs.raw().get('/internal/v1/agents/typo-agent'))).status).toBe(404);
      const patched = await rcs
        .admin(rcs.raw().patch('/internal/v1/agents/named-agent'))
        .send({ accounts: ['acme-typo'] });
      expect(patched.status).toBe(400);
      expect(patched.body.details.errors[0].loc).toEqual(['body', 'accounts', '0']);
    });

    it('when an account is allowed and then denied by name, then it may send as the agent, then 403', async () => {
      const acct = await rcs.publishAccount(rcs.account({ name: 'Allowed-By-Name' }));
      await rcs.agent('allow-agent', []);
      const allowed = await rcs.admin(
        rcs.raw().put('/internal/v1/agents/allow-agent/accounts/ALLOWED-BY-NAME'),
      );
      expect(allowed.status).toBe(200);
      expect(allowed.body.accounts).toEqual([acct.id]);
      // Allowing twice changes nothing.
      const again = await rcs.admin(
        rcs.raw().put(`/internal/v1/agents/allow-agent/accounts/${acct.id}`),
      );
      expect(again.body.accounts).toEqual([acct.id]);
      expect((await rcs.send(acct, body('allow-agent'))).status).toBe(202);

      const denied = await rcs.admin(
        rcs.raw().delete('/internal/v1/agents/allow-agent/accounts/allowed-by-name'),
      );
      expect(denied.status).toBe(200);
      expect(denied.body.accounts).toEqual([]);
      expect((await rcs.send(acct, body('allow-agent'))).status).toBe(403);
    });

    it('when allow names an unknown account or agent, then 404 naming it, and nothing changes', async () => {
      const acct = await rcs.publishAccount(rcs.account());
      await rcs.agent('strict-agent', []);
      const account = await rcs.admin(
        rcs.raw().put('/internal/v1/agents/strict-agent/accounts/acme-typo'),
      );
      expect(account.status).toBe(404);
      expect(account.body).toMatchObject({
        code: 'NOT_FOUND',
        message: expect.stringContaining('acme-typo'),
      });
      const agent = await rcs.admin(
        rcs.raw().put(`/internal/v1/agents/no-such-agent/accounts/${acct.id}`),
      );
      expect(agent.status).toBe(404);
      expect(agent.body.message).toContain('no-such-agent');
      const shown = await rcs.admin(rcs.raw().get('/internal/v1/agents/strict-agent'));
      expect(shown.body.accounts).toEqual([]);
    });

    it('when an allowed account is no longer known here, then deny by its id still removes it', async () => {
      const acct = await rcs.publishAccount(rcs.account());
      await rcs.agent('stale-agent', [acct]);
      await rcs.pool.query(
        `UPDATE "rcs"."agent_accounts" SET "account_id" = 'stale-account' WHERE "agent_id" = 'stale-agent'`,
      );
      const denied = await rcs.admin(
        rcs.raw().delete('/internal/v1/agents/stale-agent/accounts/stale-account'),
      );
      expect(denied.status).toBe(200);
      expect(denied.body.accounts).toEqual([]);
      const unknown = await rcs.admin(
        rcs.raw().delete('/internal/v1/agents/stale-agent/accounts/stale-account'),
      );
      expect(unknown.status).toBe(404);
    });
  });

  it('when kind is not one of the two, then 400 naming it', async () => {
    const res = await rcs
      .admin(rcs.raw().post('/internal/v1/agents'))
      .send({ agent_id: 'odd-kind', display_name: 'x', kind: 'chatbot' });
    expect(res.status).toBe(400);
    expect(res.body.details.errors[0].loc).toEqual(['body', 'kind']);
    const created = await rcs.agent('default-kind', []);
    expect(created.kind).toBe('business_messaging');
  });
});

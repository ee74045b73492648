import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { createLogger } from '@msg/logger';
import got, { type Got } from 'got';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSuiteConfig } from '../src/config.js';
import { startSuite } from '../src/suite.js';
import { type Platform, startEmbedded, startProcesses } from './platform.js';

/**
 * The same end-to-end suite on both ways to run the platform: the embedded default (one process,
 * embedded PostgreSQL, in-process bus) and the deployed shape (a process per service, real
 * Postgres and Kafka).
 * Every request goes through the gateway; accounts are made through the admin API and reach the
 * batch service over the accounts.v1 topic.
 */
const modes: [string, () => Promise<Platform>][] = [
  ['embedded defaults', startEmbedded],
  ['real Kafka and Postgres, one process per service', startProcesses],
];

const unique = () => `e2e${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** Retries `attempt` until it returns true: propagation over the bus takes a moment. */
async function eventually(attempt: () => Promise<boolean>, timeoutMs = 15_000): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (await attempt()) return Date.now() - started;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`condition not met within ${timeoutMs} ms`);
}

describe.each(modes)('platform on %s', (_mode, start) => {
  let platform: Platform;
  let gateway: Got;
  let admin: Got;

  beforeAll(async () => {
    platform = await start();
    gateway = got.extend({
      prefixUrl: platform.gatewayUrl,
      throwHttpErrors: false,
      retry: { limit: 0 },
    });
    admin = got.extend({
      prefixUrl: `${platform.adminUrl}/internal/v1/accounts`,
      headers: { authorization: `Bearer ${platform.adminToken}` },
      responseType: 'json',
      throwHttpErrors: false,
      retry: { limit: 0 },
    });
  }, 180_000);

  afterAll(async () => {
    await platform?.stop();
  }, 60_000);

  async function createAccount(settings: Record<string, unknown> = {}) {
    const name = unique();
    const res = await admin.post<{ id: string; apiKey: string }>('', {
      json: { name, createApiKey: true, permissions: ['batch_sms'], ...settings },
    });
    expect(res.statusCode).toBe(201);
    return { name, id: res.body.id, apiKey: res.body.apiKey };
  }

  const token = (clientId: string, clientSecret: string, headers: Record<string, string> = {}) =>
    gateway.post('v1/oauth/token', {
      json: { client_id: clientId, client_secret: clientSecret, grant_type: 'client_credentials' },
      headers,
    });

  it('when the gateway is probed, then liveness and readiness answer 200', async () => {
    expect((await gateway.get('healthz')).statusCode).toBe(200);
    expect((await gateway.get('readyz')).statusCode).toBe(200);
  });

  it('when an account is created through admin, then it gets a token through the gateway within seconds', async () => {
    const account = await createAccount();
    let answer: { access_token: string; token_type: string; expires_in: number } | undefined;
    await eventually(async () => {
      const res = await token(account.name, account.apiKey);
      if (res.statusCode !== 200) return false;
      answer = JSON.parse(res.body);
      return true;
    });
    expect(answer?.token_type).toBe('bearer');
    expect(answer?.expires_in).toBeGreaterThan(0);
    const claims = JSON.parse(
      Buffer.from(answer?.access_token.split('.')[1] ?? '', 'base64url').toString(),
    );
    expect(claims.sub).toBe(account.id);
    // client_id is the account name, matched case-insensitively
    expect((await token(account.name.toUpperCase(), account.apiKey)).statusCode).toBe(200);
  });

  it('when the client secret is wrong, then 401 in the batch error format', async () => {
    const account = await createAccount();
    await eventually(async () => (await token(account.name, account.apiKey)).statusCode === 200);
    const res = await token(account.name, `${account.apiKey}x`);
    expect(res.statusCode).toBe(401);
    expect(JSON.parse(res.body)).toMatchObject({
      code: 'UNAUTHORIZED',
      message: expect.any(String),
    });
  });

  it('when the account is disabled and enabled again, then tokens follow within seconds', async () => {
    const account = await createAccount();
    await eventually(async () => (await token(account.name, account.apiKey)).statusCode === 200);
    expect((await admin.post(`${account.id}/disable`)).statusCode).toBe(200);
    await eventually(async () => (await token(account.name, account.apiKey)).statusCode === 403);
    expect((await admin.post(`${account.id}/enable`)).statusCode).toBe(200);
    await eventually(async () => (await token(account.name, account.apiKey)).statusCode === 200);
  });

  it('when the API key is revoked, then it stops working within seconds', async () => {
    const account = await createAccount();
    await eventually(async () => (await token(account.name, account.apiKey)).statusCode === 200);
    const shown = await admin.get<{ apiKeys: { id: string }[] }>(account.id);
    const keyId = shown.body.apiKeys[0]?.id ?? '';
    expect((await admin.delete(`${account.id}/api-keys/${keyId}`)).statusCode).toBe(204);
    await eventually(async () => (await token(account.name, account.apiKey)).statusCode === 401);
  });

  it('when batch SMS is not enabled for the account, then 403', async () => {
    const account = await createAccount({ permissions: ['sms'] });
    await eventually(async () => (await token(account.name, account.apiKey)).statusCode === 403);
  });

  it('when a gzip batch is created through the gateway (dry run), then it completes and its delta lists every recipient', async () => {
    const account = await createAccount();
    let bearer = '';
    await eventually(async () => {
      const res = await token(account.name, account.apiKey);
      if (res.statusCode === 200) bearer = JSON.parse(res.body).access_token;
      return res.statusCode === 200;
    });
    const batches = gateway.extend({
      headers: { authorization: `Bearer ${bearer}` },
      responseType: 'json',
    });
    const body = {
      batch: {
        sms_config: { sender_id: 'E2E', message_template: 'Hej {{name}}' },
        recipients: ['+46701000001', '+46701000002', '+46701000003'].map((phone_number, i) => ({
          phone_number,
          field_message: { name: `n${i}` },
        })),
        dry_run: true,
      },
    };
    // Not compressed: refused with a clear message, before it could count as this second's create.
    const plain = await batches.post<{ message: string }>('v1/batches', {
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    });
    expect(plain.statusCode).toBe(415);
    expect(plain.body.message).toMatch(/gzip/i);
    const created = await batches.post<{ id: string }>('v1/batches', {
      body: gzipSync(JSON.stringify(body)),
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    });
    expect(created.statusCode).toBe(202);
    await eventually(async () => {
      const res = await batches.get<{ batch_status_summary: { status: string } }>(
        `v1/batches/${created.body.id}/poll`,
      );
      return res.body.batch_status_summary.status === 'completed';
    });
    const delta = await batches.get<{ submitted_messages_delta: { message: string }[] }>(
      `v1/batches/${created.body.id}/poll_with_delta`,
    );
    expect(delta.body.submitted_messages_delta.map((d) => d.message).sort()).toEqual([
      'Hej n0',
      'Hej n1',
      'Hej n2',
    ]);
  });

  it('when the caller address is outside the IP allow-list, then 403, even with a forged X-Forwarded-For', async () => {
    const outside = await createAccount({ ipAllowList: ['10.0.0.0/8'] });
    await eventually(async () => (await token(outside.name, outside.apiKey)).statusCode === 403);
    const forged = await token(outside.name, outside.apiKey, { 'x-forwarded-for': '10.1.2.3' });
    expect(forged.statusCode).toBe(403);
    const inside = await createAccount({ ipAllowList: ['127.0.0.1/32', '::1'] });
    await eventually(async () => (await token(inside.name, inside.apiKey)).statusCode === 200);
  });

  it('when a request id is sent, then the answer carries it back', async () => {
    const res = await gateway.get('v1/health/batches', {
      headers: { 'x-request-id': 'e2e-req-1' },
    });
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ status: 'OK' });
    expect(res.headers['x-request-id']).toBe('e2e-req-1');
  });

  describe('bad input at the token endpoint', () => {
    const post = (body: string | Buffer, headers: Record<string, string>) =>
      gateway.post('v1/oauth/token', { body, headers });

    it('when the JSON is malformed, then 400 naming the problem', async () => {
      const res = await post('{"client_id": ', { 'content-type': 'application/json' });
      expect(res.statusCode).toBe(400);
      expect(JSON.parse(res.body).message).toMatch(/JSON/i);
    });

    it('when a required field is missing, then 400 naming the field', async () => {
      const res = await post(JSON.stringify({ client_id: 'x' }), {
        'content-type': 'application/json',
      });
      expect(res.statusCode).toBe(400);
      expect(JSON.stringify(JSON.parse(res.body))).toContain('client_secret');
    });

    it('when a field has the wrong type, then 400 naming the field', async () => {
      const res = await post(JSON.stringify({ client_id: 1, client_secret: 'x' }), {
        'content-type': 'application/json',
      });
      expect(res.statusCode).toBe(400);
      expect(JSON.stringify(JSON.parse(res.body))).toContain('client_id');
    });

    it('when the content type is not accepted, then 415', async () => {
      const res = await post('client_id=x', { 'content-type': 'text/plain' });
      expect(res.statusCode).toBe(415);
    });

    it('when the body is over the limit, then 413', async () => {
      const res = await post(
        JSON.stringify({ client_id: 'x'.repeat(2_000_000), client_secret: 'y' }),
        {
          'content-type': 'application/json',
        },
      );
      expect(res.statusCode).toBe(413);
    });

    it('when the body is form-encoded, then it is accepted like JSON', async () => {
      const res = await post('client_id=nobody&client_secret=wrong&grant_type=client_credentials', {
        'content-type': 'application/x-www-form-urlencoded',
      });
      expect(res.statusCode).toBe(401);
    });

    it('when the body claims gzip but is not, then 400 or 415 with a clear message', async () => {
      const res = await post(Buffer.from('not gzip'), {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
      });
      expect([400, 415]).toContain(res.statusCode);
      expect(JSON.parse(res.body).message).toBeTruthy();
      const good = await post(
        gzipSync(JSON.stringify({ client_id: 'nobody', client_secret: 'x' })),
        {
          'content-type': 'application/json',
          'content-encoding': 'gzip',
        },
      );
      expect(good.statusCode).toBe(401);
    });
  });

  it('when the path is unknown, then 404; when the method is wrong, then 405', async () => {
    expect((await gateway.get('v1/nothing-here')).statusCode).toBe(404);
    expect((await gateway.get('v1/oauth/token')).statusCode).toBe(405);
  });

  // The process platform runs a subset of the services (voice is not among them); the embedded
  // one runs every interface.
  it.runIf(start === startProcesses)(
    'when a service is not deployed, then the gateway answers 502 in its interface error format',
    async () => {
      const res = await gateway.get('txt2voice/v1/messages/some-id');
      expect(res.statusCode).toBe(502);
      expect(JSON.parse(res.body)).toEqual({
        detail: [{ loc: [], msg: 'voice is not deployed', type: 'bad_gateway' }],
      });
    },
  );

  it.runIf(start === startEmbedded)(
    'when text-to-voice is asked for, then it is deployed behind the gateway',
    async () => {
      const res = await gateway.get('txt2voice/v1/health');
      expect(res.statusCode).toBe(200);
      expect(JSON.parse(res.body)).toEqual({ status: 'ok' });
    },
  );

  it('when the admin API is asked through the gateway, then it is not there', async () => {
    expect((await gateway.get('internal/v1/accounts')).statusCode).toBe(404);
  });

  it('when the admin API is called without its token, then 401', async () => {
    const res = await got.get(`${platform.adminUrl}/internal/v1/accounts`, {
      throwHttpErrors: false,
    });
    expect(res.statusCode).toBe(401);
  });

  it('when metrics are scraped, then request counts by route and status are there', async () => {
    const res = await gateway.get('metrics');
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatch(/gateway_requests_total\{[^}]*upstream="batch"[^}]*status="200"/);
  });
});

describe('pnpm start on the embedded defaults', () => {
  it('when started twice on the same data folder, then the demo account and earlier accounts work both times', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'suite-'));
    const config = loadSuiteConfig({
      PORT: '0',
      ADMIN_PORT: '0',
      SMSC_CONTROL_PORT: '0',
      EMBEDDED_DATA_DIR: dataDir,
      LOG_LEVEL: 'error',
      DEMO_USERNAME: 'demo-e2e',
      DEMO_PASSWORD: 'demo-password-1',
      DEMO_API_KEY: 'demo-e2e-key-0123456789',
    });
    const logger = createLogger({ service: 'e2e', level: 'error' });
    const token = (url: string, id: string, secret: string) =>
      got.post(`${url}/v1/oauth/token`, {
        json: { client_id: id, client_secret: secret },
        throwHttpErrors: false,
      });
    try {
      const first = await startSuite(config, logger);
      let customerKey = '';
      try {
        expect(
          (await token(first.gatewayUrl, 'demo-e2e', 'demo-e2e-key-0123456789')).statusCode,
        ).toBe(200);
        const created = await got
          .post(`${first.adminUrl}/internal/v1/accounts`, {
            headers: { authorization: `Bearer ${first.adminToken}` },
            json: { name: 'customer-e2e', createApiKey: true, permissions: ['batch_sms'] },
          })
          .json<{ apiKey: string }>();
        customerKey = created.apiKey;
        await eventually(
          async () =>
            (await token(first.gatewayUrl, 'customer-e2e', customerKey)).statusCode === 200,
        );
      } finally {
        await first.stop();
      }
      const second = await startSuite(config, logger);
      try {
        expect(
          (await token(second.gatewayUrl, 'demo-e2e', 'demo-e2e-key-0123456789')).statusCode,
        ).toBe(200);
        await eventually(
          async () =>
            (await token(second.gatewayUrl, 'customer-e2e', customerKey)).statusCode === 200,
        );
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

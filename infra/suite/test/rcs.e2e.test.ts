import { randomBytes } from 'node:crypto';
import { createLogger } from '@msg/logger';
import got, { type Got } from 'got';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSuiteConfig } from '../src/config.js';
import { type RunningSuite, startSuite } from '../src/suite.js';

/**
 * RCS through the gateway on the embedded defaults: the demo account sends as the seeded demo
 * agent (its id from DEMO_RCS_AGENT_ID) with its X-API-Key / X-Client-ID.
 */
describe('RCS in the embedded suite', () => {
  let suite: RunningSuite;
  let gateway: Got;
  const demo = {
    username: 'demo',
    password: 'demo-password-1',
    apiKey: `demo_${randomBytes(18).toString('base64url')}`,
  };

  beforeAll(async () => {
    suite = await startSuite(
      loadSuiteConfig({
        PORT: '0',
        ADMIN_PORT: '0',
        SMSC_CONTROL_PORT: '0',
        EMBEDDED_DATA_DIR: 'memory',
        LOG_LEVEL: 'error',
        DEMO_USERNAME: demo.username,
        DEMO_PASSWORD: demo.password,
        DEMO_API_KEY: demo.apiKey,
        DEMO_RCS_AGENT_ID: 'e2e-agent',
      }),
      createLogger({ service: 'e2e', level: 'error' }),
    );
    gateway = got.extend({
      prefixUrl: suite.gatewayUrl,
      headers: { 'x-api-key': demo.apiKey, 'x-client-id': demo.username },
      throwHttpErrors: false,
      retry: { limit: 0 },
      responseType: 'json',
    });
  }, 180_000);

  afterAll(async () => {
    await suite?.stop();
  }, 60_000);

  it('when the suite starts, then the demo agent is the one DEMO_RCS_AGENT_ID names', () => {
    expect(suite.demoRcsAgentId).toBe('e2e-agent');
  });

  it('when the demo account sends (and dry-runs) as the demo agent through the gateway, then 202', async () => {
    for (const dry_run of [false, true]) {
      const res = await gateway.post('rcs/v1/messages', {
        json: {
          recipient: '+46701740605',
          agent_id: 'e2e-agent',
          message: { text: 'Hello' },
          client_message_id: `e2e-${dry_run}`,
          dry_run,
        },
      });
      expect(res.statusCode, JSON.stringify(res.body)).toBe(202);
      expect(res.body).toEqual({
        message_id: expect.any(String),
        client_message_id: `e2e-${dry_run}`,
      });
    }
  });

  it('when the health probes and /v1/webhooks are asked through the gateway, then the rcs service answers', async () => {
    const ready = await gateway.get('rcs/v1/health/ready');
    expect(ready.statusCode).toBe(200);
    expect(ready.body).toEqual({ message: expect.any(String), status: 'ok' });
    // Routed to rcs: an answer of the service (not the gateway's 502 for an unset upstream),
    // whatever the webhook operations answer once they are built.
    const webhooks = await gateway.get('v1/webhooks');
    expect(webhooks.statusCode).toBeLessThan(500);
  });
});

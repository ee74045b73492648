import { createLogger } from '@msg/logger';
import { signData } from '@msg/rbm';
import type { RequestHandler } from 'express';
import pg from 'pg';
import { Registry } from 'prom-client';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { createPushReceiver } from '../src/inbound/push-receiver.js';
import { PUSH_PATH } from './rbm-support.js';

const pass: RequestHandler = (_req, _res, next) => next();

/** The app with only the push route and no RCS_RBM_CLIENT_TOKEN; no database is touched. */
function appWithoutClientToken() {
  const metrics = new Registry();
  const app = createApp({
    access: pass,
    adminBearer: pass,
    http: {
      logger: createLogger({ service: 'rcs', level: 'error' }),
      metrics,
      readiness: [],
      validateResponses: true,
    },
    operations: {
      push: createPushReceiver({
        // Never queried: a refused push stops before the database.
        pool: new pg.Pool({ connectionString: 'postgres://127.0.0.1:1/none' }),
        clientToken: undefined,
        metrics,
      }),
    },
  });
  return { app, metrics };
}

describe('POST /rcs/v1/rbm/events without a client token configured', () => {
  it('when RCS_RBM_CLIENT_TOKEN is unset, then pushes and handshakes are 403 and counted as no_client_token', async () => {
    const { app, metrics } = appWithoutClientToken();
    const data = Buffer.from(JSON.stringify({ senderPhoneNumber: '+46700000001', text: 'x' }));
    const push = JSON.stringify({ message: { data: data.toString('base64'), messageId: 'm1' } });
    const pushed = await request(app)
      .post(PUSH_PATH)
      .set('content-type', 'application/json')
      .set('x-goog-signature', signData(data, 'any'))
      .send(push);
    expect(pushed.status).toBe(403);
    expect(pushed.body).toMatchObject({ code: 'FORBIDDEN', details: {} });
    const handshake = await request(app)
      .post(PUSH_PATH)
      .set('content-type', 'application/json')
      .send(JSON.stringify({ clientToken: '', secret: 'x' }));
    expect(handshake.status).toBe(403);
    const counted = await metrics.getSingleMetricAsString('rcs_inbound_push_refused_total');
    expect(counted).toContain('reason="no_client_token"} 2');
  });
});

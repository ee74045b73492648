import { createLogger } from '@msg/logger';
import type { RequestHandler } from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import type { NumberLookup } from '../src/lookup/number-lookup.js';
import type { Quota } from '../src/quota.js';
import { PROBLEMS, startTestNumbers } from './support.js';

const logger = createLogger({ service: 'numbers-test', level: 'error' });

/** The app with a lookup that fails as given and an authenticated caller with every scope. */
function appFailingWith(error: unknown, quota?: Partial<Quota>) {
  const lookup: NumberLookup = {
    base: async () => {
      throw error;
    },
    portingHistory: async () => {
      throw error;
    },
    liveStatus: async () => {
      throw error;
    },
  };
  const recorded: string[] = [];
  const fullQuota: Quota = {
    check: async () => {},
    record: async (account) => {
      recorded.push(account.id);
    },
    used: async () => 0,
    ...quota,
  };
  const basicAuth: RequestHandler = (req, _res, next) => {
    req.account = {
      id: 'acct-1',
      name: 'caller',
      status: 'active',
      passwordHash: null,
      apiKeys: [],
      permissions: ['numbers'],
      numberScopes: ['numbers:read', 'numbers:porting-history', 'numbers:live-status'],
      callbacks: {
        replyPathUrl: null,
        replyPathMethod: 'POST',
        deliveryReportUrl: null,
        voiceReportUrl: null,
      },
      rateLimit: { perSecond: 100, burst: 100 },
      smsThroughputPerSecond: 1,
      batchMaxRecipients: null,
      numbersMonthlyQuota: 10,
      ipAllowList: [],
      senderIds: [],
      version: 1,
      updatedAt: new Date().toISOString(),
    };
    next();
  };
  const app = createApp({
    lookup,
    quota: fullQuota,
    basicAuth,
    internalBearer: (_req, _res, next) => next(),
    problemTypeBase: `${PROBLEMS}/`,
    http: { logger, readiness: [], validateResponses: true },
  });
  return { app, recorded };
}

describe('503 and 500', () => {
  it('when the database is unreachable, then 503 service-unavailable with Retry-After, not counted', async () => {
    // As pg raises it: a socket error of the connect call.
    const outage = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
      code: 'ECONNREFUSED',
      syscall: 'connect',
    });
    const { app, recorded } = appFailingWith(outage);
    const res = await request(app).get('/v1/numbers/46701234567/live-status');
    expect(res.status).toBe(503);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toEqual({
      type: `${PROBLEMS}/service-unavailable`,
      title: 'Service Unavailable',
      status: 503,
      detail: expect.any(String),
      instance: '/v1/numbers/46701234567/live-status',
    });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.headers.vary).toBe('Authorization');
    expect(recorded).toEqual([]);
  });

  it('when Postgres is shutting down (SQLSTATE 57P01), then 503 service-unavailable', async () => {
    // As pg raises it: a DatabaseError carries a severity beside the SQLSTATE.
    const shutdown = Object.assign(new Error('terminating'), { code: '57P01', severity: 'FATAL' });
    const { app } = appFailingWith(shutdown);
    const res = await request(app).get('/v1/numbers/46701234567');
    expect(res.body.type).toBe(`${PROBLEMS}/service-unavailable`);
  });

  it('when something unexpected fails, then 500 internal-error asking to contact support with path and time, not counted', async () => {
    const { app, recorded } = appFailingWith(new TypeError('x is not a function'));
    const res = await request(app).get('/v1/numbers/46701234567/porting-history');
    expect(res.status).toBe(500);
    expect(res.body.type).toBe(`${PROBLEMS}/internal-error`);
    expect(res.body.instance).toBe('/v1/numbers/46701234567/porting-history');
    expect(res.body.detail).toMatch(/contact support/i);
    expect(res.body.detail).toContain('/v1/numbers/46701234567/porting-history');
    expect(res.body.detail).toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/);
    expect(res.body.detail).not.toContain('x is not a function');
    expect(res.headers.vary).toBe('Authorization');
    expect(recorded).toEqual([]);
  });
});

describe('a real database failure', () => {
  it('when a table the lookup needs is gone, then 500 internal-error', async () => {
    const t = await startTestNumbers();
    try {
      const acct = await t.publishAccount(t.account());
      await t.pool.query('DROP TABLE numbers.lookup_count');
      const res = await t.get(acct, '/v1/numbers/46701234567');
      expect(res.status).toBe(500);
      expect(res.body.type).toBe(`${PROBLEMS}/internal-error`);
    } finally {
      await t.stop();
    }
  }, 60_000);
});

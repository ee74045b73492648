import type { RequestHandler } from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { rateLimit } from '../src/rate-limit-middleware.js';
import { createRateLimiter } from '../src/rate-limiter.js';
import { createSharedRateLimiter } from '../src/shared-rate-limiter.js';
import { makeAccount } from './support/accounts.js';
import { createTestApp, whoami } from './support/app.js';
import { memoryBucketStore } from './support/memory-bucket-store.js';

function appWith(limit: RequestHandler, signedIn = true) {
  const account = makeAccount({ rateLimit: { perSecond: 1, burst: 2 } });
  const as: RequestHandler = (req, _res, next) => {
    if (signedIn) req.account = account;
    next();
  };
  return createTestApp((app) => app.get('/limited', as, limit, whoami));
}

describe('rateLimit middleware', () => {
  it('when the account exceeds its burst, then 429 with Retry-After; after the wait it passes again', async () => {
    let now = 0;
    const limiter = createRateLimiter({ now: () => now });
    const app = appWith(
      rateLimit(limiter, (req) => req.account && { key: req.account.id, ...req.account.rateLimit }),
    );

    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await request(app).get('/limited')).status);
    const refused = await request(app).get('/limited');
    now += 1000;
    const later = await request(app).get('/limited');

    expect(statuses).toEqual([200, 200, 429]);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.body.code).toBe('RATE_LIMITED');
    expect(later.status).toBe(200);
  });

  it('when the limiter answers after a lease from the shared bucket, then the same 429 with Retry-After', async () => {
    let now = 0;
    const store = memoryBucketStore(() => now);
    const limiter = createSharedRateLimiter({ store, now: () => now });
    const app = appWith(
      rateLimit(limiter, (req) => req.account && { key: req.account.id, ...req.account.rateLimit }),
    );

    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await request(app).get('/limited')).status);
    const refused = await request(app).get('/limited');
    now += 1000;
    const later = await request(app).get('/limited');

    expect(statuses).toEqual([200, 200, 429]);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.body.code).toBe('RATE_LIMITED');
    expect(later.status).toBe(200);
  });

  it('when the shared bucket cannot be reached, then the request fails instead of passing unlimited', async () => {
    const store = memoryBucketStore(() => 0);
    store.fail = new Error('connection terminated');
    const app = appWith(
      rateLimit(
        createSharedRateLimiter({ store }),
        (req) => req.account && { key: req.account.id, ...req.account.rateLimit },
      ),
    );

    const res = await request(app).get('/limited');

    expect(res.status).toBe(500);
    expect(res.body.message).toBe('connection terminated');
  });

  it('when the wait is fractional, then Retry-After is rounded up to whole seconds', async () => {
    let now = 0;
    const limiter = createRateLimiter({ now: () => now });
    const app = appWith(rateLimit(limiter, () => ({ key: 'k', perSecond: 0.25, burst: 1 })));
    await request(app).get('/limited');

    now += 1500;
    const res = await request(app).get('/limited');

    expect(res.headers['retry-after']).toBe('3');
  });

  it('when the policy returns nothing, then the request is not limited', async () => {
    const limiter = createRateLimiter();
    const app = appWith(
      rateLimit(limiter, (req) => req.account && { key: req.account.id, perSecond: 1, burst: 1 }),
      false,
    );

    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await request(app).get('/limited')).status);

    expect(statuses).toEqual([200, 200, 200]);
    expect(limiter.size).toBe(0);
  });
});

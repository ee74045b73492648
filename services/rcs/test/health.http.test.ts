import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRcs, type TestRcs } from './support.js';

describe('RCS health (spec 4.5)', () => {
  let rcs: TestRcs;

  beforeAll(async () => {
    rcs = await startTestRcs();
  });

  afterAll(async () => {
    await rcs?.stop();
  });

  it('when liveness is asked without credentials, then 200 with message and status', async () => {
    const res = await rcs.raw().get('/rcs/v1/health/live');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: expect.any(String), status: 'ok' });
  });

  it('when the dependencies are up, then readiness is 200 with the same shape', async () => {
    const res = await rcs.raw().get('/rcs/v1/health/ready');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: expect.any(String), status: 'ok' });
  });

  it('when the RBM platform cannot be reached, then readiness is 503 naming it', async () => {
    const unreachable = await startTestRcs({
      // Nothing listens on port 1: connections are refused at once.
      env: { RCS_RBM_BASE_URL: 'http://127.0.0.1:1' },
    });
    try {
      const res = await unreachable.raw().get('/rcs/v1/health/ready');
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ message: 'Unavailable: rbm platform', status: 'unavailable' });
      // The orchestrators' probe is not: replicas keep accepting (and queueing) sends.
      expect((await unreachable.raw().get('/readyz')).status).toBe(200);
    } finally {
      await unreachable.stop();
    }
  });

  it('when the path is unknown, then 404 in the 7.4 format', async () => {
    const res = await rcs.raw().get('/rcs/v1/nothing');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 'NOT_FOUND', message: expect.any(String), details: {} });
  });
});

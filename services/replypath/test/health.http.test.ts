import { startTestRuntime, type TestRuntime } from '@msg/testing';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadReplypathConfig } from '../src/config.js';
import { type ReplypathService, startReplypathService } from '../src/service.js';

describe('GET /replypath/v1/health', () => {
  let runtime: TestRuntime;
  let service: ReplypathService;

  beforeAll(async () => {
    runtime = await startTestRuntime({ service: 'replypath' });
    service = await startReplypathService(
      loadReplypathConfig({ LOG_LEVEL: 'error', NODE_ENV: 'test' }),
      runtime,
    );
  });

  afterAll(async () => {
    await service?.stop();
    await runtime?.stop();
  });

  it('when asked without credentials, then 200 with status OK', async () => {
    const res = await request(service.app).get('/replypath/v1/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'OK' });
  });

  it('when the path is unknown, then 404 in the 7.2 format', async () => {
    const res = await request(service.app).get('/replypath/v1/nothing');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 'NOT_FOUND', message: expect.any(String) });
  });
});

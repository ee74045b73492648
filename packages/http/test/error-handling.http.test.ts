import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { describe, expect, it, vi } from 'vitest';
import { createService } from '../src/create-service.js';
import type { ErrorFormat } from '../src/error-format.js';
import { captureLogs, messagesService } from './support.js';

describe('errors thrown by handlers', () => {
  const { app, logs } = messagesService();

  it('when a handler throws an unknown error, then 500 INTERNAL_ERROR with an error id and nothing of the error', async () => {
    const res = await request(app).get('/v1/trouble/explode');
    expect(res.status).toBe(500);
    expect(res.body.code).toBe('INTERNAL_ERROR');
    const errorId = /error id ([0-9a-f-]{36})/.exec(res.body.message)?.[1];
    expect(errorId).toBeDefined();
    expect(res.text).not.toMatch(/hunter2|connect failed|stack|at /);
    expect(Object.keys(res.body).sort()).toEqual(['code', 'message']);

    const logged = logs.lines.find((line) => line.errorId === errorId);
    expect(logged).toMatchObject({ level: 'error', message: 'request failed' });
    expect(JSON.stringify(logged)).toMatch(/connect failed.*\\n\s+at /);
  });

  it('when an async handler rejects, then it is a 500 too, not a hung request', async () => {
    const res = await request(app).get('/v1/trouble/reject');
    expect(res.status).toBe(500);
    expect(res.body.code).toBe('INTERNAL_ERROR');
  });

  it('when a handler throws RateLimitedError, then 429 with Retry-After rounded up', async () => {
    const res = await request(app).get('/v1/trouble/rate');
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBe('3');
    expect(res.body).toEqual({ code: 'RATE_LIMITED', message: 'Rate limit exceeded' });
  });

  it('when a handler throws UnauthorizedError with a challenge, then 401 with WWW-Authenticate', async () => {
    const res = await request(app).get('/v1/trouble/unauthorized');
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Basic realm="messaging"');
    expect(res.body).toEqual({ code: 'UNAUTHORIZED', message: 'Wrong user or password' });
  });

  it('when a handler throws one of our 5xx errors, then it is answered as is, not as an internal error', async () => {
    const res = await request(app).get('/v1/trouble/unavailable');
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.body.code).toBe('SERVICE_UNAVAILABLE');
  });

  it('when a library error carries a 4xx status, then that status with its exposed message', async () => {
    const res = await request(app).get('/v1/trouble/teapot');
    expect(res.status).toBe(418);
    expect(res.body).toEqual({ code: 'HTTP_418', message: 'short and stout' });
  });

  it('when a library error carries a 5xx status, then a 500 with an error id, not its message', async () => {
    const res = await request(app).get('/v1/trouble/foreign5xx');
    expect(res.status).toBe(500);
    expect(res.text).not.toContain('upstream exploded');
  });

  it('when a response breaks the document, then the caller gets a 500 and the log says why', async () => {
    const res = await request(app).get('/v1/trouble/bad-response');
    expect(res.status).toBe(500);
    const errorId = /error id ([0-9a-f-]{36})/.exec(res.body.message)?.[1];
    const logged = logs.lines.find((line) => line.errorId === errorId);
    expect(JSON.stringify(logged?.problems)).toContain('must be boolean');
  });
});

describe('development stacks', () => {
  it('when exposeErrorStacks is on, then the 500 body carries the stack', async () => {
    const { app } = messagesService({ exposeErrorStacks: true, validateResponses: false });
    const res = await request(app).get('/v1/trouble/explode');
    expect(res.status).toBe(500);
    expect(res.body.stack).toMatch(/connect failed for password=hunter2\n\s+at /);
  });
});

describe('the service error format', () => {
  const problemJson: ErrorFormat = (err, req) => ({
    status: err.status,
    contentType: 'application/problem+json',
    body: {
      type: `https://errors.example/${err.code.toLowerCase()}`,
      title: err.message,
      status: err.status,
      instance: req.path,
    },
    headers: { 'Cache-Control': 'no-store' },
  });
  const { app } = messagesService({ errorFormat: problemJson, validateResponses: false });

  it('when validation fails, then the error is rendered by the service format', async () => {
    const res = await request(app).post('/v1/messages').send({ to: 'x' });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toMatchObject({
      type: 'https://errors.example/validation_error',
      status: 400,
      instance: '/v1/messages',
    });
    expect(res.body.title).toContain('body.to: must NOT have fewer than 10 characters');
  });

  it('when the route is unknown, then the 404 is rendered by the service format too', async () => {
    const res = await request(app).get('/v1/nowhere');
    expect(res.status).toBe(404);
    expect(res.body.type).toBe('https://errors.example/not_found');
  });

  it('when the format returns text, then it is sent as text', async () => {
    const { app: legacy } = messagesService({
      errorFormat: (err) => ({
        status: 200,
        body: `request=false&error=${encodeURIComponent(err.message)}`,
      }),
    });
    const res = await request(legacy).get('/v1/nowhere');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.text).toBe('request=false&error=No%20operation%20at%20%2Fv1%2Fnowhere');
  });

  it('when the format itself throws, then a bare 500 is still answered and logged', async () => {
    const { app: broken, logs } = messagesService({
      errorFormat: () => {
        throw new Error('format bug');
      },
    });
    const res = await request(broken).get('/v1/nowhere');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ code: 'INTERNAL_ERROR', message: 'Unexpected error' });
    await vi.waitFor(() =>
      expect(logs.lines.some((l) => l.message === 'error format failed')).toBe(true),
    );
  });
});

describe('a document the validator rejects', () => {
  it('when the document is not valid OpenAPI, then requests get a 500 and the log says the document is invalid', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'http-')), 'invalid.yaml');
    writeFileSync(
      file,
      [
        'openapi: 3.1.0',
        'info: { title: t, version: 1.0.0 }',
        'paths:',
        '  /x:',
        '    get:',
        '      parameters:',
        '        - { name: q, in: nowhere }',
        '      responses: {}',
      ].join('\n'),
    );
    const logs = captureLogs();
    const app = createService({
      name: 'invalid',
      logger: logs.logger,
      openapiPath: file,
      routes: () => {},
    });
    const res = await request(app).get('/x');
    expect(res.status).toBe(500);
    expect(JSON.stringify(logs.lines)).toContain('args.apiDoc was invalid');
  });
});

import { gzipSync } from 'node:zlib';
import type { RequestHandler } from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createService } from '../src/create-service.js';
import { UnauthorizedError } from '../src/errors.js';
import { captureLogs, fixtureDocument, messagesService, sendRaw } from './support.js';

describe('rawBodyPaths (upload)', () => {
  const { app } = messagesService({ rawBodyPaths: ['/v1/uploads'], bodyLimit: '1kb' });

  it('when a raw path gets a gzip body, then the route reads the stream itself, beyond the JSON limit', async () => {
    const items = Array.from({ length: 500 }, (_, i) => `item-${i}`);
    const res = await sendRaw(app, {
      path: '/v1/uploads',
      headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
      body: gzipSync(JSON.stringify({ items })),
    });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ count: 500 });
  });

  it('when a raw path is asked with a trailing slash, then the route still reads the stream itself; in other letter case, then 404 promptly', async () => {
    // Express routes '/v1/uploads/' to '/v1/uploads' (non-strict routing): a body parser that took
    // the slash for another path read the stream first, and the route waited for it forever.
    const res = await request(app)
      .post('/v1/uploads/')
      .timeout(10_000)
      .set('Content-Type', 'application/json')
      .send({ items: ['a', 'b'] });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ count: 2 });
    const upper = await request(app)
      .post('/V1/Uploads')
      .timeout(10_000)
      .set('Content-Type', 'application/json')
      .send({ items: ['a'] });
    // Paths are case-sensitive: another path, answered at once rather than left waiting.
    expect(upper.status).toBe(404);
  });

  it('when a raw path gets a Content-Type its operation does not list, then the validator still answers 415', async () => {
    const res = await request(app).post('/v1/uploads').set('Content-Type', 'text/csv').send('a,b');
    expect(res.status).toBe(415);
  });

  it('when other paths get bodies, then they are still parsed and validated', async () => {
    const res = await request(app).post('/v1/messages').send({ to: 'x' });
    expect(res.status).toBe(400);
  });

  it('when a raw path is not in the document, then createService refuses to start', () => {
    expect(() => messagesService({ rawBodyPaths: ['/v1/upload'] })).toThrow(
      'rawBodyPaths: /v1/upload is not a path of the OpenAPI document',
    );
  });
});

describe('authenticators (the document says which operation needs which scheme)', () => {
  const apiKey: RequestHandler = (req, _res, next) => {
    if (req.get('X-API-Key') === 'good-key') next();
    else next(new UnauthorizedError('Missing or invalid API key', 'ApiKey'));
  };
  const { app } = messagesService({ authenticators: { apiKey } });

  it('when an operation needs a scheme and credentials are missing, then 401 comes before any 400', async () => {
    const res = await request(app).post('/v1/messages').send({ to: 'x' });
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('ApiKey');
    expect(res.body).toEqual({ code: 'UNAUTHORIZED', message: 'Missing or invalid API key' });
  });

  it('when the credentials are good, then the request is validated as usual', async () => {
    const res = await request(app)
      .post('/v1/messages')
      .set('X-API-Key', 'good-key')
      .send({ to: 'x' });
    expect(res.status).toBe(400);
    const ok = await request(app)
      .post('/v1/messages')
      .set('X-API-Key', 'good-key')
      .send({ to: '+46701234567', message: 'hi' });
    expect(ok.status).toBe(202);
  });

  it('when an operation declares security: [], then it runs without credentials', async () => {
    const res = await request(app).get('/v1/public/ping');
    expect(res.status).toBe(200);
  });

  it('when the path is unknown, then 404 without asking for credentials', async () => {
    expect((await request(app).get('/v1/nowhere')).status).toBe(404);
  });

  it('when a scheme the document uses has no authenticator, then createService refuses to start', () => {
    expect(() =>
      createService({
        name: 'messages',
        logger: captureLogs().logger,
        openapiPath: fixtureDocument,
        authenticators: {},
        routes: () => {},
      }),
    ).toThrow('listMessages: no authenticator for security scheme apiKey');
  });
});

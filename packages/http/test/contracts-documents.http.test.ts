import { gzipSync } from 'node:zlib';
import {
  internalDocumentPath,
  isInternalDocumentName,
  OPENAPI_DOCUMENTS,
  openapiDocumentPath,
  readOpenApiDocument,
  requestExamples,
} from '@msg/contracts';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createService } from '../src/create-service.js';
import { UnauthorizedError } from '../src/errors.js';
import { captureLogs } from './support.js';

/** Every service's documents: its public one and its internal one, when it has them. */
const SERVICES = [
  ...OPENAPI_DOCUMENTS.map((name) => ({
    name,
    openapiPath: openapiDocumentPath(name),
    ...(isInternalDocumentName(name) && { internalOpenapiPath: internalDocumentPath(name) }),
    // The notifier serves the callbacks interface and its own internal document.
    ...(name === 'callbacks' && { internalOpenapiPath: internalDocumentPath('notifier') }),
  })),
  { name: 'admin', openapiPath: internalDocumentPath('admin') },
];

describe.each(SERVICES)('the $name service document', (documents) => {
  it('when a service is built on it, then the validator accepts it and answers unknown paths with 404', async () => {
    const app = createService({ logger: captureLogs().logger, routes: () => {}, ...documents });
    // The validator loads the document on the first request; a document it rejects gives 500s.
    const res = await request(app).get('/definitely/not/documented');
    expect(res.status).toBe(404);
  });
});

/**
 * Issue 23 item 8: Swagger UI's "Try it out" sends a body's example as it is, and the one it made
 * up for POST /v1/sms/send was refused. Every example must pass what the service checks before
 * its handler: the document through the real validator, with our formats and input rules. (The
 * suite's request-examples e2e test sends them to the running platform.)
 */
describe.each(
  SERVICES.filter((documents) => documents.name !== 'admin')
    .map((documents) => ({
      ...documents,
      examples: requestExamples(readOpenApiDocument(documents.openapiPath)),
    }))
    .filter(({ examples }) => examples.length > 0),
)('the request examples of the $name document', ({ examples, ...documents }) => {
  const app = createService({
    logger: captureLogs().logger,
    ...documents,
    // Past validation, every operation answers 204: what is checked is that it got there.
    routes: (router) => {
      router.use((_req, res) => {
        res.status(204).end();
      });
    },
  });

  it.each(examples)(
    'when $where is sent as its example, then the validator lets it through',
    async (example) => {
      const req = request(app)
        [example.method as 'post' | 'patch' | 'put'](example.path)
        .query(example.query)
        .set(example.headers)
        .type(example.mediaType);
      // The batch body goes gzip-compressed, as its Content-Encoding example says.
      const res = await (example.headers['Content-Encoding'] === 'gzip'
        ? req.serialize((bytes) => bytes).send(gzipSync(JSON.stringify(example.body)))
        : req.send(example.body as object));
      expect(res.status, JSON.stringify(res.body)).toBe(204);
    },
  );
});

describe('the batch document', () => {
  const tokens: unknown[] = [];
  const app = createService({
    name: 'batch',
    logger: captureLogs().logger,
    openapiPath: openapiDocumentPath('batch'),
    validateResponses: true,
    routes(app) {
      app.post('/v1/oauth/token', (req, res) => {
        tokens.push(req.body);
        if (req.body.client_secret !== 'key')
          throw new UnauthorizedError('Wrong client_id or client_secret');
        res
          .set('Cache-Control', 'no-store')
          .json({ access_token: 'jwt', token_type: 'bearer', expires_in: 3600 });
      });
      app.get('/v1/health/batches', (_req, res) => {
        res.json({ status: 'OK' });
      });
    },
  });

  it('when a token is asked for with a form, then grant_type defaults to client_credentials', async () => {
    const res = await request(app)
      .post('/v1/oauth/token')
      .type('form')
      .send({ client_id: 'acme', client_secret: 'key' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ access_token: 'jwt', token_type: 'bearer', expires_in: 3600 });
    expect(tokens.at(-1)).toEqual({
      client_id: 'acme',
      client_secret: 'key',
      grant_type: 'client_credentials',
    });
  });

  it('when client_secret is missing or grant_type is not client_credentials, then 400 names them', async () => {
    const res = await request(app)
      .post('/v1/oauth/token')
      .send({ client_id: 'acme', grant_type: 'password' });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual(
      expect.arrayContaining([
        { loc: ['body', 'client_secret'], msg: 'is required', type: 'missing' },
        {
          loc: ['body', 'grant_type'],
          msg: 'must be equal to one of the allowed values: client_credentials',
          type: 'enum',
        },
      ]),
    );
  });

  it('when the credentials are wrong, then the 401 body is the documented Error', async () => {
    const res = await request(app)
      .post('/v1/oauth/token')
      .send({ client_id: 'acme', client_secret: 'nope' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: 'UNAUTHORIZED', message: 'Wrong client_id or client_secret' });
  });

  it('when the batch health is asked for, then 200 OK', async () => {
    const res = await request(app).get('/v1/health/batches');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'OK' });
  });
});

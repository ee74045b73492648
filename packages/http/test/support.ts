import { once } from 'node:events';
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { createGunzip } from 'node:zlib';
import { createLogger, type Logger } from '@msg/logger';
import type { Express, Request } from 'express';
import { createService, type ServiceOptions } from '../src/create-service.js';
import { RateLimitedError, UnauthorizedError, UpstreamUnavailableError } from '../src/errors.js';

export const fixtureDocument = fileURLToPath(new URL('./fixtures/messages.yaml', import.meta.url));

export interface CapturedLogs {
  logger: Logger;
  lines: Record<string, unknown>[];
}

/** A real logger writing into an array, to assert on what reaches the log. */
export function captureLogs(): CapturedLogs {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line.trim() !== '') lines.push(JSON.parse(line));
      }
      callback();
    },
  });
  return { logger: createLogger({ service: 'messages', level: 'debug', stream }), lines };
}

async function readJson(req: Request): Promise<unknown> {
  const source = req.headers['content-encoding'] === 'gzip' ? req.pipe(createGunzip()) : req;
  const chunks: Buffer[] = [];
  for await (const chunk of source) chunks.push(Buffer.from(chunk));
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

export interface MessagesService {
  app: Express;
  logs: CapturedLogs;
  /** Bodies the sendMessage handler received, as validated. */
  received: unknown[];
}

/** The fixture service: handlers for the fixture document, strict validation of responses on. */
export function messagesService(overrides: Partial<ServiceOptions> = {}): MessagesService {
  const logs = captureLogs();
  const received: unknown[] = [];
  const app = createService({
    name: 'messages',
    logger: logs.logger,
    openapiPath: fixtureDocument,
    validateResponses: true,
    routes(app) {
      app.get('/v1/messages', (req, res) => {
        res.json({ limit: req.query.limit, items: [] });
      });
      app.post('/v1/messages', (req, res) => {
        received.push(req.body);
        res.status(202).json({ id: 'm-1' });
      });
      app.get('/v1/messages/:id', (req, res) => {
        res.json({ id: req.params.id });
      });
      app.post('/v1/uploads', async (req, res) => {
        const body = await readJson(req);
        const items =
          typeof body === 'object' && body !== null && 'items' in body ? body.items : [];
        res.status(202).json({ count: Array.isArray(items) ? items.length : 0 });
      });
      app.get('/v1/public/ping', (_req, res) => {
        res.json({ pong: true });
      });
      app.get('/v1/trouble/:kind', async (req, res) => {
        switch (req.params.kind) {
          case 'explode':
            throw new Error('connect failed for password=hunter2');
          case 'reject':
            await Promise.reject(new TypeError('cannot read properties of undefined'));
            break;
          case 'rate':
            throw new RateLimitedError(2.5);
          case 'unauthorized':
            throw new UnauthorizedError('Wrong user or password', 'Basic realm="messaging"');
          case 'unavailable':
            throw new UpstreamUnavailableError('Provider down', 5);
          case 'teapot':
            throw Object.assign(new Error('short and stout'), { status: 418, expose: true });
          case 'foreign5xx':
            throw Object.assign(new Error('upstream exploded'), { status: 502 });
          case 'bad-response':
            res.json({ ok: 'yes' });
            return;
        }
        res.json({ ok: true });
      });
    },
    ...overrides,
  });
  return { app, logs, received };
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/**
 * Sends bytes exactly as given (supertest re-serialises a Buffer it is told is JSON), on an
 * ephemeral server that is closed afterwards.
 */
export async function sendRaw(
  app: Express,
  {
    method = 'POST',
    path,
    headers,
    body,
  }: { method?: string; path: string; headers: Record<string, string>; body: Buffer },
): Promise<RawResponse> {
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const address = server.address();
    if (typeof address !== 'object' || address === null) throw new Error('server has no address');
    const { port } = address;
    const req = httpRequest({
      host: '127.0.0.1',
      port,
      method,
      path,
      headers: { ...headers, 'Content-Length': String(body.length) },
    });
    req.end(body);
    const res: IncomingMessage = (await once(req, 'response'))[0];
    const chunks: Buffer[] = [];
    for await (const chunk of res) chunks.push(Buffer.from(chunk));
    const text = Buffer.concat(chunks).toString('utf8');
    return {
      status: res.statusCode ?? 0,
      headers: res.headers,
      body: text ? JSON.parse(text) : undefined,
    };
  } finally {
    server.close();
  }
}

import { connect } from 'node:net';
import { createLogger } from '@msg/logger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { problemErrorFormat } from '../src/problem-format.js';
import { type RunningServer, startServer } from '../src/start-server.js';
import { messagesService } from './support.js';

interface RawAnswer {
  status: number;
  contentType: string | undefined;
  body: unknown;
}

/** Writes bytes on a fresh connection and reads until the server closes it. */
async function rawExchange(server: RunningServer, bytes: string): Promise<RawAnswer> {
  const socket = connect(server.port, '127.0.0.1');
  socket.write(bytes);
  const chunks: Buffer[] = [];
  for await (const chunk of socket) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  const [head = '', body = ''] = text.split('\r\n\r\n');
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const contentType = headerLines
    .find((line) => line.toLowerCase().startsWith('content-type:'))
    ?.slice('content-type:'.length)
    .trim();
  return {
    status: Number(statusLine.split(' ')[1]),
    contentType,
    body: body === '' ? undefined : JSON.parse(body),
  };
}

const bigHeaders = (path: string) =>
  `GET ${path} HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`;
const badFraming = (path: string) => `GET ${path} HTTP/1.1\r\nHost x\r\n\r\n`;

describe('requests refused by Node before express sees them', () => {
  const logger = createLogger({ service: 'messages', level: 'error' });
  let json: RunningServer;
  let problem: RunningServer;

  beforeAll(async () => {
    json = await startServer(messagesService().app, { port: 0, host: '127.0.0.1', logger });
    const problemApp = messagesService({
      errorFormat: problemErrorFormat('https://example.test/problems'),
    }).app;
    problem = await startServer(problemApp, { port: 0, host: '127.0.0.1', logger });
  });
  afterAll(async () => {
    await json?.close();
    await problem?.close();
  });

  it('when the headers pass 16 KB, then 431 with a body in the interface format', async () => {
    const res = await rawExchange(json, bigHeaders('/v1/messages'));
    expect(res).toEqual({
      status: 431,
      contentType: 'application/json; charset=utf-8',
      body: { code: 'HEADERS_TOO_LARGE', message: 'Request headers are too large' },
    });
  });

  it('when the framing is broken, then 400 MALFORMED_REQUEST in the interface format', async () => {
    const res = await rawExchange(json, badFraming('/v1/messages'));
    expect(res).toEqual({
      status: 400,
      contentType: 'application/json; charset=utf-8',
      body: { code: 'MALFORMED_REQUEST', message: 'The request is not valid HTTP/1.1' },
    });
  });

  it('when the interface speaks problem+json, then Node refusals are problem+json with the path as instance', async () => {
    const framing = await rawExchange(problem, badFraming('/v1/messages/1'));
    expect(framing.status).toBe(400);
    expect(framing.contentType).toBe('application/problem+json; charset=utf-8');
    expect(framing.body).toEqual({
      type: 'https://example.test/problems/malformed-request',
      title: 'Bad Request',
      status: 400,
      detail: 'The request is not valid HTTP/1.1',
      instance: '/v1/messages/1',
    });
    const headers = await rawExchange(problem, bigHeaders('/v1/messages'));
    expect(headers.status).toBe(431);
    expect(headers.contentType).toBe('application/problem+json; charset=utf-8');
    expect(headers.body).toMatchObject({
      status: 431,
      type: expect.stringMatching(/headers-too-large$/),
    });
  });
});

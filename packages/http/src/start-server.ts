import { once } from 'node:events';
import { createServer, type Server, type ServerResponse, STATUS_CODES } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Logger } from '@msg/logger';
import type { Express, Request } from 'express';
import { type ErrorResponse, jsonErrorFormat } from './error-format.js';
import { HttpError, MalformedRequestError, PayloadTooLargeError } from './errors.js';

/** Renders an error for a request Node refused before express saw it; `path` when known. */
export type ClientErrorRenderer = (err: HttpError, path: string) => ErrorResponse;

// Which interface format an app answers in, registered by whoever built it (createService, the
// gateway) so that startServer can answer Node's own refusals in it too.
const renderers = new WeakMap<Express, ClientErrorRenderer>();

/** Makes startServer answer requests Node's HTTP parser refuses (431, 400...) with `render`. */
export function renderClientErrorsWith(app: Express, render: ClientErrorRenderer): void {
  renderers.set(app, render);
}

// `{ code, message }` needs nothing of the request.
const defaultRender: ClientErrorRenderer = (err) => jsonErrorFormat(err, {} as Request);

/** What Node refused, in our vocabulary (Node's own choice of status kept). */
function clientHttpError(code: unknown): HttpError {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return new HttpError(431, 'HEADERS_TOO_LARGE', 'Request headers are too large');
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new PayloadTooLargeError('Chunk extensions are too large');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new HttpError(408, 'REQUEST_TIMEOUT', 'The request took too long to arrive');
    default:
      return new MalformedRequestError('The request is not valid HTTP/1.1');
  }
}

/** The request target of the request line Node choked on, when it got that far. */
function targetPath(rawPacket: unknown): string {
  if (!Buffer.isBuffer(rawPacket)) return '/';
  const line = /^[A-Z]+ (\/[^\s?]*)/.exec(rawPacket.subarray(0, 8192).toString('latin1'));
  return line?.[1] ?? '/';
}

/**
 * Node answers a request its parser refuses with a bare status line and no body; this writes the
 * interface's error body instead, then closes (the connection's framing cannot be trusted).
 */
function answerClientError(
  render: ClientErrorRenderer,
  logger: Logger,
  err: NodeJS.ErrnoException & { rawPacket?: unknown },
  socket: Socket,
): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const error = clientHttpError(err.code);
  logger.info('request refused by the HTTP parser', { status: error.status, reason: err.code });
  let rendered: ErrorResponse;
  try {
    rendered = render(error, targetPath(err.rawPacket));
  } catch {
    rendered = defaultRender(error, '/');
  }
  const body = Buffer.from(
    typeof rendered.body === 'string' ? rendered.body : JSON.stringify(rendered.body),
  );
  const contentType =
    rendered.contentType ??
    (typeof rendered.body === 'string' ? 'text/plain' : 'application/json; charset=utf-8');
  const headers = { ...error.headers, ...rendered.headers };
  const lines = [
    `HTTP/1.1 ${rendered.status} ${STATUS_CODES[rendered.status] ?? 'Error'}`,
    `Content-Type: ${contentType}`,
    `Content-Length: ${body.length}`,
    'Connection: close',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  socket.end(Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), body]));
}

export interface ServerOptions {
  /** 0 picks a free port (tests, embedded mode). */
  port: number;
  /** Default '0.0.0.0'. */
  host?: string;
  logger: Logger;
  /** How long close() lets in-flight requests finish before cutting them off; default 10 s. */
  drainTimeoutMs?: number;
  /** Runs at the end of close(), after the last connection is gone. */
  onShutdown?: () => Promise<void>;
}

export interface RunningServer {
  port: number;
  /** Base URL to reach the server, e.g. http://127.0.0.1:43123. */
  url: string;
  server: Server;
  /**
   * Stops accepting connections, closes idle keep-alive connections, lets in-flight requests
   * finish (telling their clients `Connection: close`), and after drainTimeoutMs destroys what
   * is left. Idempotent.
   */
  close(): Promise<void>;
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

export async function startServer(app: Express, options: ServerOptions): Promise<RunningServer> {
  const { logger, host = '0.0.0.0', drainTimeoutMs = 10_000 } = options;
  const server = createServer(app);
  const render = renderers.get(app) ?? defaultRender;
  server.on('clientError', (err, socket: Socket) => answerClientError(render, logger, err, socket));
  // In-flight responses per connection; a connection with none is idle (keep-alive).
  const inFlight = new Map<Socket, Set<ServerResponse>>();
  let closing: Promise<void> | undefined;

  server.on('connection', (socket: Socket) => {
    inFlight.set(socket, new Set());
    socket.once('close', () => inFlight.delete(socket));
  });
  server.on('request', (req, res: ServerResponse) => {
    const responses = inFlight.get(req.socket);
    if (!responses) return;
    responses.add(res);
    if (closing) res.setHeader('Connection', 'close');
    res.once('close', () => {
      responses.delete(res);
      // While draining, a connection ends with its last response instead of idling.
      if (closing && responses.size === 0) req.socket.end();
    });
  });

  server.listen(options.port, host);
  await once(server, 'listening');
  const address = server.address();
  const port =
    typeof address === 'object' && address !== null
      ? (address satisfies AddressInfo).port
      : options.port;
  const url = `http://${urlHost(host)}:${port}`;
  logger.info('listening', { url });

  async function drain(): Promise<void> {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const [socket, responses] of inFlight) {
      if (responses.size === 0) socket.end();
      for (const res of responses) if (!res.headersSent) res.setHeader('Connection', 'close');
    }
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), drainTimeoutMs);
    });
    if ((await Promise.race([closed, timedOut])) === 'timeout') {
      logger.warn('drain timed out; closing remaining connections', { connections: inFlight.size });
      for (const socket of inFlight.keys()) socket.destroy();
      await closed;
    }
    clearTimeout(timer);
    logger.info('server closed');
    await options.onShutdown?.();
  }

  return {
    port,
    url,
    server,
    close() {
      closing ??= drain();
      return closing;
    },
  };
}

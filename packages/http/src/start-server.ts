import { once } from 'node:events';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Logger } from '@msg/logger';
import type { Express } from 'express';

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

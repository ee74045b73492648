import { once } from 'node:events';
import {
  type ClientRequest,
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type RequestListener,
} from 'node:http';
import { PassThrough } from 'node:stream';
import { createLogger, type Logger } from '@msg/logger';
import express from 'express';
import { createApp, type GatewayDeps } from '../src/app.js';
import { type GatewayConfig, loadGatewayConfig } from '../src/config.js';
import { createUpstreamAgents } from '../src/upstream-proxy.js';

export interface Listening {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Serves `handler` on 127.0.0.1 on an ephemeral port. */
export async function listen(handler: RequestListener): Promise<Listening> {
  const server = createServer(handler);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening on TCP');
  const { port } = address;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  bodyBytes: number;
}

export interface EchoUpstream extends Listening {
  name: string;
  seen: SeenRequest[];
}

/** A stand-in service: answers every request with what it received (after reading the body). */
export async function echoUpstream(name: string): Promise<EchoUpstream> {
  const seen: SeenRequest[] = [];
  const app = express();
  app.use((req, res) => {
    let bodyBytes = 0;
    req.on('data', (chunk: Buffer) => {
      bodyBytes += chunk.length;
    });
    req.on('end', () => {
      const request = { method: req.method, url: req.originalUrl, headers: req.headers, bodyBytes };
      seen.push(request);
      res.json({ service: name, ...request });
    });
  });
  const listening = await listen(app);
  return { ...listening, name, seen };
}

/** A logger whose JSON lines the test can read. */
export function capturingLogger(): { logger: Logger; lines: () => Record<string, unknown>[] } {
  const stream = new PassThrough();
  const raw: string[] = [];
  stream.on('data', (chunk: Buffer) => raw.push(chunk.toString('utf8')));
  const logger = createLogger({ service: 'gateway', level: 'debug', stream });
  return {
    logger,
    lines: () =>
      raw
        .join('')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line): Record<string, unknown> => JSON.parse(line)),
  };
}

export interface RunningGateway extends Listening {
  config: GatewayConfig;
  lines: () => Record<string, unknown>[];
}

/** The gateway app from createApp, listening on an ephemeral port, configured from `env`. */
export async function startTestGateway(
  env: Record<string, string>,
  deps: Partial<Omit<GatewayDeps, 'config' | 'logger'>> = {},
): Promise<RunningGateway> {
  const config = loadGatewayConfig({ NODE_ENV: 'test', ...env });
  const { logger, lines } = capturingLogger();
  const agents = deps.agents ?? createUpstreamAgents();
  const listening = await listen(createApp({ config, logger, agents, ...deps }));
  return {
    ...listening,
    config,
    lines,
    close: async () => {
      await listening.close();
      agents.destroy();
    },
  };
}

/** The access log lines among everything logged. */
export function accessLog(lines: Record<string, unknown>[]): Record<string, unknown>[] {
  return lines.filter((line) => line.message === 'http request');
}

/** Opens a request and returns it unsent, with its response as a promise. */
export function open(
  url: string,
  path: string,
  headers: Record<string, string | number>,
  method = 'POST',
): { req: ClientRequest; response: Promise<{ res: IncomingMessage; body: string }> } {
  const req = httpRequest(`${url}${path}`, { method, headers });
  // The gateway may close the connection while the client is still sending: that is the point.
  req.on('error', () => {});
  const response = new Promise<{ res: IncomingMessage; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ res, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
  });
  return { req, response };
}

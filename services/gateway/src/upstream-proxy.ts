import type { IncomingMessage } from 'node:http';
import { Agent as HttpAgent, ServerResponse } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { BadGatewayError, GatewayTimeoutError, type HttpError } from '@msg/http';
import type { Logger } from '@msg/logger';
import type { NextFunction, Request, Response } from 'express';
import { createProxyMiddleware, type Plugin } from 'http-proxy-middleware';
import type { Exchange } from './exchange.js';
import type { UpstreamService } from './routes.js';

export interface UpstreamAgents {
  http: HttpAgent;
  https: HttpsAgent;
  destroy(): void;
}

/** Connection pools to the upstreams, kept alive between requests and closed on shutdown. */
export function createUpstreamAgents(): UpstreamAgents {
  // Idle upstream sockets are dropped after 4 s, before a service's server would close them
  // (Node's default keep-alive timeout is 5 s): reusing a socket the server is closing at that
  // moment is a classic source of stray 502s.
  const http = new HttpAgent({ keepAlive: true, timeout: 4_000 });
  const https = new HttpsAgent({ keepAlive: true, timeout: 4_000 });
  return {
    http,
    https,
    destroy() {
      http.destroy();
      https.destroy();
    },
  };
}

export interface UpstreamProxyOptions {
  service: UpstreamService;
  /** Base URL of the service, e.g. http://batch; the request path is appended unchanged. */
  target: string;
  timeoutMs: number;
  agents: UpstreamAgents;
  exchangeOf(req: IncomingMessage): Exchange | undefined;
  /** Renders an error the gateway produces (502, 504) in the route's format. */
  fail(req: Request, res: Response, error: HttpError): void;
  logger: Logger;
}

export type UpstreamProxy = (req: Request, res: Response, next: NextFunction) => Promise<void>;

/**
 * A streaming reverse proxy to one service. Bodies are piped both ways, never parsed or buffered.
 * The gateway arms its own upstream timer instead of http-proxy's proxyTimeout so that a timeout
 * (504) can be told apart from a refused or reset connection (502).
 */
export function createUpstreamProxy(options: UpstreamProxyOptions): UpstreamProxy {
  const { service, target, timeoutMs, exchangeOf, fail, logger } = options;

  const gatewayEvents: Plugin<Request, Response> = (proxy) => {
    proxy.on('proxyReq', (proxyReq, req) => {
      const exchange = exchangeOf(req);
      if (!exchange) return;
      if (exchange.cutOff) {
        proxyReq.destroy();
        return;
      }
      exchange.proxyReq = proxyReq;
      // Idle time on the upstream socket: a long upload that keeps flowing is not a timeout,
      // an upstream that says nothing for timeoutMs is.
      proxyReq.setTimeout(timeoutMs, () => {
        exchange.timedOut = true;
        proxyReq.destroy(new Error(`no answer from ${service} within ${timeoutMs} ms`));
      });
    });

    proxy.on('proxyRes', (proxyRes, req, res) => {
      const exchange = exchangeOf(req);
      // The gateway's request id is the one the client was told; a service must not change it.
      if (exchange) proxyRes.headers['x-request-id'] = exchange.requestId;
      // A client that goes away mid-response must not leave the upstream response open.
      res.on('close', () => {
        if (!res.writableEnded) proxyRes.destroy();
      });
    });

    proxy.on('error', (error, req, res) => {
      if (!(res instanceof ServerResponse)) return; // a socket: only for WebSocket upgrades, unused
      const exchange = exchangeOf(req);
      if (exchange?.cutOff) return; // the gateway already answered 413 and aborted the upstream
      const code = 'code' in error && typeof error.code === 'string' ? error.code : undefined;
      logger.warn('upstream failed', {
        upstream: service,
        requestId: exchange?.requestId,
        error: exchange?.timedOut ? 'timeout' : (code ?? error.message),
      });
      // Failed mid-response: the status is gone already; cutting the connection is the only
      // honest signal left to the client.
      if (res.headersSent) {
        res.destroy();
        return;
      }
      fail(
        req,
        res,
        exchange?.timedOut
          ? new GatewayTimeoutError(`${service} is unavailable: no answer within ${timeoutMs} ms`)
          : new BadGatewayError(`${service} is unavailable`),
      );
    });

    // The client went away before the upstream answered; http-proxy aborts the upstream request
    // and there is nobody left to answer.
    proxy.on('econnreset', () => {});
  };

  const isHttps = new URL(target).protocol === 'https:';
  return createProxyMiddleware<Request, Response, NextFunction>({
    target,
    // The upstream sees its own host name in Host; the public one travels in X-Forwarded-Host.
    changeOrigin: true,
    // Forwarding headers are rewritten by the gateway (forwarded-headers.ts), not appended to.
    xfwd: false,
    agent: isHttps ? options.agents.https : options.agents.http,
    // http-proxy-middleware's default plugins log to the console and answer errors in plain
    // text; the gateway does both itself.
    ejectPlugins: true,
    plugins: [gatewayEvents],
  });
}

import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import {
  BadGatewayError,
  HttpError,
  InternalError,
  NotFoundError,
  PayloadTooLargeError,
  type ReadinessCheck,
  readinessProbe,
  renderClientErrorsWith,
} from '@msg/http';
import type { ServedDocument } from '@msg/http/api-docs';
import type { Logger } from '@msg/logger';
import express, { type NextFunction, type Request, type Response } from 'express';
import { apiDocsRouter, listApiDocuments } from './api-docs.js';
import { declaredLengthExceeds, watchBodySize } from './body-limit.js';
import { type GatewayConfig, upstreamUrls } from './config.js';
import type { Exchange } from './exchange.js';
import { setForwardedHeaders } from './forwarded-headers.js';
import { renderGatewayError } from './gateway-errors.js';
import { createGatewayMetrics, type GatewayMetrics, OWN_ENDPOINTS, UNROUTED } from './metrics.js';
import { requestIdFor } from './request-id.js';
import {
  hasUnresolvedSegments,
  loggablePath,
  matchRoute,
  takesLargeBody,
  UPSTREAM_SERVICES,
  type UpstreamService,
} from './routes.js';
import {
  createUpstreamAgents,
  createUpstreamProxy,
  type UpstreamAgents,
  type UpstreamProxy,
} from './upstream-proxy.js';

const OWN_PROBES = /^\/(healthz|readyz|metrics)$/;

export interface GatewayDeps {
  config: GatewayConfig;
  logger: Logger;
  /** Fresh per app (without process metrics) when absent. */
  metrics?: GatewayMetrics;
  /** Connection pools to the upstreams; the caller destroys them on shutdown. */
  agents?: UpstreamAgents;
  /** The OpenAPI documents served at /docs; every public one of @msg/contracts when absent. */
  documents?: readonly ServedDocument[];
  /**
   * What /readyz waits for; none when absent (deployed). The all-in-one suite adds "the demo
   * account is usable" so that scripts can wait for /readyz instead of guessing.
   */
  readiness?: readonly ReadinessCheck[];
}

/**
 * The public entry of the platform: request id, forwarding headers, body limits, streaming
 * proxy to the service owning the path (routes.ts), access log, metrics, API docs. Never
 * listens; main.ts and startGateway do.
 */
export function createApp(deps: GatewayDeps): express.Express {
  const { config, logger } = deps;
  const metrics = deps.metrics ?? createGatewayMetrics();
  const agents = deps.agents ?? createUpstreamAgents();
  const documents = deps.documents ?? listApiDocuments();
  const exchanges = new WeakMap<IncomingMessage, Exchange>();
  const exchangeOf = (req: IncomingMessage) => exchanges.get(req);

  const fail = (req: Request, res: Response, error: HttpError) => {
    const rendered = renderGatewayError(
      error,
      exchangeOf(req)?.route,
      req,
      config.PROBLEM_TYPE_BASE,
    );
    res.status(rendered.status).set(rendered.headers);
    res.setHeader('Content-Type', rendered.contentType);
    // Form text (the text-to-voice simple HTTP interface) goes as it is; the rest is JSON.
    res.end(typeof rendered.body === 'string' ? rendered.body : JSON.stringify(rendered.body));
  };

  const targets = upstreamUrls(config);
  const proxies = new Map<UpstreamService, UpstreamProxy>();
  for (const service of UPSTREAM_SERVICES) {
    const target = targets[service];
    if (!target) continue;
    proxies.set(
      service,
      createUpstreamProxy({
        service,
        target,
        timeoutMs: config.UPSTREAM_TIMEOUT_MS,
        agents,
        exchangeOf,
        fail,
        logger,
      }),
    );
  }

  const app = express();
  app.disable('x-powered-by');
  // Requests Node's parser refuses (431, 400) answered in the format of the route of their path.
  renderClientErrorsWith(app, (error, path) =>
    renderGatewayError(error, matchRoute(path), { path } as Request, config.PROBLEM_TYPE_BASE),
  );
  const trusted = config.TRUSTED_PROXIES ?? [];
  app.set('trust proxy', trusted.length > 0 ? [...trusted] : false);

  // Request id, access log and metrics for every request, whoever answers it.
  app.use((req, res, next) => {
    // Taken now: routers mounted below see req.path relative to their mount point.
    const path = req.path;
    const exchange: Exchange = {
      requestId: requestIdFor(req.headers['x-request-id']),
      startedAt: process.hrtime.bigint(),
      upstream: OWN_ENDPOINTS,
      timedOut: false,
      cutOff: false,
    };
    exchanges.set(req, exchange);
    // What @msg/http declares on every express Request, for anything mounted here.
    req.requestId = exchange.requestId;
    req.log = logger.child({ requestId: exchange.requestId });
    res.setHeader('X-Request-Id', exchange.requestId);
    res.once('close', () => {
      const seconds = Number(process.hrtime.bigint() - exchange.startedAt) / 1e9;
      // 499: the client went away (or the exchange was cut) before the response was complete.
      const status = res.writableFinished ? res.statusCode : 499;
      metrics.observe(exchange.upstream, status, seconds);
      // Orchestrator probes every few seconds would drown the log.
      const level = OWN_PROBES.test(path) && status < 400 ? 'debug' : 'info';
      // Never the query string (legacy interfaces carry passwords there), never a body.
      logger.log(level, 'http request', {
        requestId: exchange.requestId,
        method: req.method,
        path: loggablePath(path, exchange.route),
        upstream: exchange.upstream,
        status,
        durationMs: Math.round(seconds * 1e4) / 10,
      });
    });
    next();
  });

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  // Deployed, ready as soon as it listens: readiness must not follow the upstreams, or one service
  // down would take the whole edge out of the load balancer. Upstream failures answer 502/504.
  app.get('/readyz', readinessProbe(deps.readiness ?? []));
  app.get('/metrics', async (_req, res) => {
    res.setHeader('Content-Type', metrics.registry.contentType);
    res.end(await metrics.registry.metrics());
  });
  app.use('/docs', apiDocsRouter(documents));

  app.use((req, res, next) => {
    const route = matchRoute(req.path);
    const exchange = exchangeOf(req);
    if (!route || !exchange) return next();
    exchange.route = route;
    exchange.upstream = route.service;

    if (hasUnresolvedSegments(req.path)) {
      return fail(
        req,
        res,
        new NotFoundError('No operation at this path: it has empty or dot segments'),
      );
    }
    const proxy = proxies.get(route.service);
    if (!proxy) return fail(req, res, new BadGatewayError(`${route.service} is not deployed`));

    const limit = takesLargeBody(req.method, req.path)
      ? config.BATCH_BODY_LIMIT
      : config.BODY_LIMIT;
    const tooLarge = new PayloadTooLargeError(`Request body larger than ${limit} bytes`);
    if (declaredLengthExceeds(req, limit)) {
      // The body is not read; closing is cheaper than draining up to gigabytes of it.
      res.setHeader('Connection', 'close');
      return fail(req, res, tooLarge);
    }
    watchBodySize(req, limit, () => {
      exchange.cutOff = true;
      exchange.proxyReq?.destroy();
      req.unpipe();
      if (res.headersSent) {
        res.destroy();
        return;
      }
      res.setHeader('Connection', 'close');
      fail(req, res, tooLarge);
      // Discard the rest while the answer goes out; the connection closes after it.
      req.resume();
    });

    setForwardedHeaders(req);
    req.headers['x-request-id'] = exchange.requestId;
    // Node has already told the client "100 Continue"; forwarding Expect would also hide the
    // upstream request from http-proxy's proxyReq event, which arms the upstream timeout.
    delete req.headers.expect;
    return proxy(req, res, next);
  });

  app.use((req, res) => {
    const exchange = exchangeOf(req);
    if (exchange) exchange.upstream = UNROUTED;
    fail(req, res, new NotFoundError('No public interface at this path'));
  });

  app.use((error: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(error);
    if (error instanceof HttpError) return fail(req, res, error);
    const failure = new InternalError(randomUUID());
    logger.error('unexpected error', {
      requestId: exchangeOf(req)?.requestId,
      errorId: failure.errorId,
      error,
    });
    return fail(req, res, failure);
  });

  return app;
}

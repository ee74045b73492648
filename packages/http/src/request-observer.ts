import type { RequestHandler } from 'express';
import type { HttpMetrics } from './http-metrics.js';
import { routeLabel } from './route-label.js';

const PROBES = /^\/(healthz|readyz|metrics)$/;

/**
 * One access-log line and one metrics observation per request, when its response is done. The line
 * has the route pattern, never the URL: query strings carry credentials on some interfaces (User,
 * Pass) and paths carry phone numbers.
 */
export function requestObserver(metrics: HttpMetrics): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.once('close', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      // 499: the client went away before the response was complete (nginx's convention).
      const status = res.writableFinished ? res.statusCode : 499;
      const route = routeLabel(req);
      metrics.observe({ method: req.method, route, status: String(status) }, seconds);
      // Orchestrator probes every few seconds would drown the log.
      const level = PROBES.test(req.path) && status < 400 ? 'debug' : 'info';
      req.log.log(level, 'http request', {
        method: req.method,
        route,
        status,
        durationMs: Math.round(seconds * 1e4) / 10,
      });
    });
    next();
  };
}

import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/** The label of requests the gateway answers itself (health, docs, metrics). */
export const OWN_ENDPOINTS = 'gateway';
/** The label of requests to no public path (404). */
export const UNROUTED = 'none';

export interface GatewayMetrics {
  registry: Registry;
  /** `status` is the HTTP status; 499 when the client went away before the response was done. */
  observe(upstream: string, status: number, seconds: number): void;
}

export interface GatewayMetricsOptions {
  /** Also collect Node process metrics (CPU, memory, event loop); on in main.ts only, since
   * in the all-in-one launcher every service shares one process. */
  processMetrics?: boolean;
}

/**
 * One registry per app, never prom-client's global one: several apps share a process in tests
 * and in the all-in-one launcher.
 */
export function createGatewayMetrics(options: GatewayMetricsOptions = {}): GatewayMetrics {
  const registry = new Registry();
  if (options.processMetrics) collectDefaultMetrics({ register: registry });
  const labelNames = ['upstream', 'status'] as const;
  const requests = new Counter({
    name: 'gateway_requests_total',
    help: 'Requests through the gateway by upstream service and response status',
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'gateway_request_duration_seconds',
    help: 'Time from request to the end of the response, by upstream service and status',
    labelNames,
    // Up to the default upstream timeout (30 s) and a bit beyond for slow uploads.
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [registry],
  });
  return {
    registry,
    observe(upstream, status, seconds) {
      const labels = { upstream, status: String(status) };
      requests.inc(labels);
      duration.observe(labels, seconds);
    },
  };
}

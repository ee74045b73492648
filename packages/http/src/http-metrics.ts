import { Counter, collectDefaultMetrics, Histogram, type Registry } from 'prom-client';

export interface HttpMetrics {
  observe(labels: { method: string; route: string; status: string }, seconds: number): void;
}

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Request count and latency on the service's own registry (several services share one process in
 * embedded mode, so the global default registry would mix them and reject duplicate names).
 */
export function createHttpMetrics(
  registry: Registry,
  { processMetrics }: { processMetrics: boolean },
): HttpMetrics {
  if (processMetrics) collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from request to response, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  return {
    observe({ method, route, status }, seconds) {
      const labels = { method: KNOWN_METHODS.has(method) ? method : 'OTHER', route, status };
      requests.inc(labels);
      duration.observe(labels, seconds);
    },
  };
}

import { Counter, Histogram, type Registry } from 'prom-client';

/** outcome: delivered; retry (failed, another attempt is scheduled); dead (given up). */
export type AttemptOutcome = 'delivered' | 'retry' | 'dead';

export function createNotifierMetrics(registry: Registry) {
  const attempts = new Counter({
    name: 'callback_attempts_total',
    help: 'Callback delivery attempts by outcome.',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'callback_delivery_seconds',
    help: 'Duration of one callback delivery attempt (request to answer or failure).',
    labelNames: ['outcome'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  return {
    attempt(outcome: AttemptOutcome, durationMs: number): void {
      attempts.inc({ outcome });
      duration.observe({ outcome }, durationMs / 1000);
    },
  };
}

export type NotifierMetrics = ReturnType<typeof createNotifierMetrics>;

import type { Express } from 'express';
import type pg from 'pg';
import type { Registry } from 'prom-client';
import { createPushMetrics } from './push-metrics.js';
import { createPushProcessor, type ServerEventHook } from './push-processor.js';
import { RBM_PUSH_PATH, receiveRbmEvent } from './receiveRbmEvent.js';

export interface InboundDeps {
  pool: pg.Pool;
  /** RCS_RBM_CLIENT_TOKEN. */
  clientToken: string | undefined;
  /** The service's registry: rcs_inbound_push_refused_total, rcs_inbound_pushes_total. */
  metrics: Registry;
  /** RBM's TTL events, for whoever expires messages; counted and dropped without it. */
  serverEvents?: ServerEventHook;
}

/** Mounts the RBM push endpoint; call once per app (its counters live on `metrics`). */
export function inboundRoutes(deps: InboundDeps): (app: Express) => void {
  const metrics = createPushMetrics(deps.metrics);
  const process = createPushProcessor({
    pool: deps.pool,
    ...(deps.serverEvents && { serverEvents: deps.serverEvents }),
  });
  return (app) => {
    app.post(
      RBM_PUSH_PATH,
      ...receiveRbmEvent({ clientToken: deps.clientToken, process, metrics }),
    );
  };
}

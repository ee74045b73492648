import type pg from 'pg';
import type { Registry } from 'prom-client';
import type { ReceiveRbmEventDeps } from '../operations/receiveRbmEvent.js';
import { createPushMetrics } from './push-metrics.js';
import { createPushProcessor, type ServerEventHook } from './push-processor.js';

export interface InboundDeps {
  pool: pg.Pool;
  /** RCS_RBM_CLIENT_TOKEN. */
  clientToken: string | undefined;
  /** The service's registry: rcs_inbound_push_refused_total, rcs_inbound_pushes_total. */
  metrics: Registry;
  /** RBM's TTL events, for whoever expires messages; counted and dropped without it. */
  serverEvents?: ServerEventHook;
}

/**
 * What the RBM push operation (receiveRbmEvent) needs: the processor and the push counters.
 * Call once per app: the counters are registered on `metrics`, which refuses a second set.
 */
export function createPushReceiver(deps: InboundDeps): ReceiveRbmEventDeps {
  return {
    clientToken: deps.clientToken,
    process: createPushProcessor({
      pool: deps.pool,
      ...(deps.serverEvents && { serverEvents: deps.serverEvents }),
    }),
    metrics: createPushMetrics(deps.metrics),
  };
}

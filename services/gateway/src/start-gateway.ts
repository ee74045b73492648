import { type ReadinessCheck, startServer } from '@msg/http';
import type { Logger } from '@msg/logger';
import { createApp } from './app.js';
import type { GatewayConfig } from './config.js';
import { createGatewayMetrics } from './metrics.js';
import { createUpstreamAgents } from './upstream-proxy.js';

export interface StartGatewayOptions {
  logger: Logger;
  /** Node process metrics on /metrics; main.ts turns them on, the all-in-one launcher does not. */
  processMetrics?: boolean;
  /** How long close() lets in-flight requests (uploads included) finish; default 20 s. */
  drainTimeoutMs?: number;
  /** What /readyz waits for besides listening (see GatewayDeps.readiness). */
  readiness?: readonly ReadinessCheck[];
}

export interface RunningGateway {
  /** e.g. http://127.0.0.1:8080 */
  url: string;
  port: number;
  /** Stops accepting, drains in-flight requests, then closes the upstream connection pools. */
  close(): Promise<void>;
}

/**
 * Listens on config.HOST:config.PORT (0 picks a free port). Used by main.ts and by the all-in-one
 * launcher, which runs the gateway in-process next to every service.
 */
export async function startGateway(
  config: GatewayConfig,
  options: StartGatewayOptions,
): Promise<RunningGateway> {
  const { logger } = options;
  const agents = createUpstreamAgents();
  const metrics = createGatewayMetrics({ processMetrics: options.processMetrics ?? false });
  const app = createApp({
    config,
    logger,
    agents,
    metrics,
    ...(options.readiness && { readiness: options.readiness }),
  });
  const server = await startServer(app, {
    port: config.PORT,
    host: config.HOST,
    logger,
    // Kubernetes: preStop 5 s + this 20 s stay inside terminationGracePeriodSeconds 30.
    drainTimeoutMs: options.drainTimeoutMs ?? 20_000,
    onShutdown: async () => agents.destroy(),
  });
  return { url: server.url, port: server.port, close: server.close };
}

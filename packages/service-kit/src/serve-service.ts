import { startServer } from '@msg/http';
import type { BaseServiceConfig, ServiceDefinition, ServiceParts } from './service-definition.js';
import { type ServiceDependencies, type StartedService, startService } from './start-service.js';

export interface ServingOptions {
  /** Default: the config's PORT and HOST. The embedded suite picks its own. */
  port?: number;
  host?: string;
}

export type ServingService<P extends ServiceParts> = StartedService<P> & {
  /** Base URL of the listening server. */
  url: string;
  /**
   * Settles once the background work (consumers, relays, workers) has started, or failed to.
   * The HTTP API does not wait for it.
   */
  started: Promise<void>;
  /** Stops accepting and drains HTTP, then stops the service's parts, last started first. */
  stop(): Promise<void>;
};

/**
 * Starts a service, listens as soon as what requests need is there (schema, account directory),
 * then starts its consumers, relays and workers in the background: a consumer joining its group
 * after a crash (a whole session timeout) never keeps the API down.
 */
export async function serveService<C extends BaseServiceConfig, P extends ServiceParts>(
  definition: ServiceDefinition<C, P>,
  config: C,
  runtime: ServiceDependencies,
  { port = config.PORT, host = config.HOST }: ServingOptions = {},
): Promise<ServingService<P>> {
  const service = await startService(definition, config, runtime);
  const stopService = service.stop;
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer(service.app, { port, host, logger: runtime.logger });
  } catch (error) {
    await stopService();
    throw error;
  }
  const started = service.startBackground();
  // Observed here so an unawaited failure is never an unhandled rejection; callers decide.
  started.catch(() => {});
  return Object.assign(service, {
    url: server.url,
    started,
    async stop() {
      await server.close();
      await stopService();
    },
  });
}

import { createKafkaBus } from '@msg/bus';
import { ConfigError, type Env, portInUseMessage } from '@msg/config';
import { createPool } from '@msg/db';
import { flushLogger, onSigterm } from '@msg/http';
import { createLogger } from '@msg/logger';
import { loadDeployedConfig } from './deployed-config.js';
import { type ServingService, serveService } from './serve-service.js';
import type { BaseServiceConfig, ServiceDefinition, ServiceParts } from './service-definition.js';
import { serviceRegistry } from './start-service.js';

export interface RunServiceOptions {
  /** Default process.env. */
  env?: Env;
  /** Default process.exit; tests pass their own. */
  exit?: (code: number) => void;
  /** Where a configuration problem is printed; default process.stderr. */
  stderr?: { write(text: string): unknown };
  /** Also raise a listener for these signals; default SIGTERM and SIGINT. */
  signals?: NodeJS.Signals[];
}

/**
 * The whole life of a deployed service process — a main.ts is `await runService(definition)`:
 * settings (a problem is printed and exits 1), logger, pool and Kafka bus, then serveService, and
 * on SIGTERM: drain HTTP, stop the service's parts (last started first), close the bus, end the
 * pool, flush the logs, exit. A failure while starting — before or after listening — is logged
 * and ends the process with exit code 1, so Kubernetes restarts it.
 */
export async function runService<C extends BaseServiceConfig, P extends ServiceParts>(
  definition: ServiceDefinition<C, P>,
  {
    env = process.env,
    exit = (code) => process.exit(code),
    stderr = process.stderr,
    signals,
  }: RunServiceOptions = {},
): Promise<void> {
  const { name } = definition;
  let loaded: ReturnType<typeof loadDeployedConfig<C, P>>;
  try {
    loaded = loadDeployedConfig(definition, env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    // An operator's mistake, not a crash: the problems, plainly, and no stack.
    stderr.write(`${error.message}\n`);
    exit(1);
    return;
  }
  const { config, deployment } = loaded;
  const logger = createLogger({ service: name, level: config.LOG_LEVEL });
  const metrics = serviceRegistry(name);
  const pool = deployment.DATABASE_URL
    ? createPool({ url: deployment.DATABASE_URL, applicationName: name, logger })
    : undefined;
  const bus = createKafkaBus({
    brokers: deployment.KAFKA_BROKERS,
    clientId: name,
    logger,
    sessionTimeoutMs: deployment.KAFKA_SESSION_TIMEOUT,
    heartbeatIntervalMs: deployment.KAFKA_HEARTBEAT_INTERVAL,
    metrics,
  });
  const closeClients = [
    { name: 'bus', close: () => bus.close() },
    ...(pool ? [{ name: 'database', close: () => pool.end() }] : []),
  ];

  let service: ServingService<P>;
  try {
    service = await serveService(definition, config, { pool, bus, logger, metrics });
  } catch (error) {
    logger.error('start-up failed', { service: name, error });
    // A taken port is the operator's to fix: say which setting, plainly, beside the log line.
    const portInUse = portInUseMessage(error, config);
    if (portInUse) stderr.write(`${name}: ${portInUse}\n`);
    await Promise.allSettled(closeClients.map((client) => client.close()));
    await flushLogger(logger);
    exit(1);
    return;
  }

  let failedStart = false;
  const shutdown = onSigterm([{ name, close: service.stop }, ...closeClients], logger, {
    exit: (code) => exit(failedStart ? 1 : code),
    ...(signals && { signals }),
  });
  service.started.then(
    () => logger.info('started', { service: name }),
    (error: unknown) => {
      failedStart = true;
      logger.error('start-up failed', { service: name, error });
      void shutdown.shutdown('start-up failed');
    },
  );
}

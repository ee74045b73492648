import {
  ConfigError,
  deployedDatabaseSettings,
  deployedKafkaSettings,
  type Env,
  loadConfig,
  z,
} from '@msg/config';
import type { BaseServiceConfig, ServiceDefinition, ServiceParts } from './service-definition.js';

const withDatabase = z.object({
  ...deployedDatabaseSettings.shape,
  ...deployedKafkaSettings.shape,
});

/** Where a deployed service finds its database and brokers; required, unlike in the suite. */
export interface Deployment {
  DATABASE_URL?: string;
  KAFKA_BROKERS: string[];
  KAFKA_SESSION_TIMEOUT: number;
  KAFKA_HEARTBEAT_INTERVAL: number;
}

/**
 * The service's own settings and the deployment's (DATABASE_URL when it has a database,
 * KAFKA_BROKERS and the consumer timing), every problem of both reported at once.
 */
export function loadDeployedConfig<C extends BaseServiceConfig, P extends ServiceParts>(
  definition: ServiceDefinition<C, P>,
  env: Env,
): { config: C; deployment: Deployment } {
  const problems: string[] = [];
  const attempt = <T>(load: () => T): T | undefined => {
    try {
      return load();
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(...error.problems);
      return undefined;
    }
  };
  const config = attempt(() => definition.loadConfig(env));
  const deployment = attempt(
    (): Deployment =>
      definition.database ? loadConfig(withDatabase, env) : loadConfig(deployedKafkaSettings, env),
  );
  if (deployment && deployment.KAFKA_HEARTBEAT_INTERVAL * 3 > deployment.KAFKA_SESSION_TIMEOUT) {
    problems.push(
      `KAFKA_HEARTBEAT_INTERVAL: must be at most a third of KAFKA_SESSION_TIMEOUT (${deployment.KAFKA_SESSION_TIMEOUT} ms), got ${deployment.KAFKA_HEARTBEAT_INTERVAL} ms`,
    );
  }
  if (problems.length > 0 || !config || !deployment) throw new ConfigError(problems);
  return { config, deployment };
}

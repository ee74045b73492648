import { createKafkaBus } from '@msg/bus';
import { exitOnConfigError } from '@msg/config';
import { createPool } from '@msg/db';
import { runService } from '@msg/http';
import { createLogger } from '@msg/logger';
import { loadNumbersConfig } from './config.js';
import { startNumbersService } from './service.js';

// Deployed form: one process, real Postgres and Kafka (account directory) from the environment.
const config = exitOnConfigError(() => loadNumbersConfig());
const logger = createLogger({ service: 'numbers', level: config.LOG_LEVEL });

await runService({ name: 'numbers', logger, port: config.PORT, host: config.HOST }, async () => {
  if (!config.DATABASE_URL || !config.KAFKA_BROKERS) {
    throw new Error(
      'DATABASE_URL and KAFKA_BROKERS are required when numbers runs as its own process',
    );
  }
  const pool = createPool({ url: config.DATABASE_URL, applicationName: 'numbers', logger });
  const bus = createKafkaBus({ brokers: config.KAFKA_BROKERS, clientId: 'numbers', logger });
  const numbers = await startNumbersService(config, { pool, bus, logger });
  return { app: numbers.app, closers: [numbers.stop, () => bus.close(), () => pool.end()] };
});

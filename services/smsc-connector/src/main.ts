import { createKafkaBus } from '@msg/bus';
import { exitOnConfigError } from '@msg/config';
import { createPool } from '@msg/db';
import { runService } from '@msg/http';
import { createLogger } from '@msg/logger';
import { loadSmscConnectorConfig } from './config.js';
import { startSmscConnector } from './service.js';

// Deployed form: one process, real Postgres and Kafka from the environment.
const config = exitOnConfigError(() => loadSmscConnectorConfig());
const logger = createLogger({ service: 'smsc-connector', level: config.LOG_LEVEL });

await runService(
  { name: 'smsc-connector', logger, port: config.PORT, host: config.HOST },
  async () => {
    if (!config.DATABASE_URL || !config.KAFKA_BROKERS) {
      throw new Error(
        'DATABASE_URL and KAFKA_BROKERS are required when the smsc-connector runs as its own process',
      );
    }
    const pool = createPool({
      url: config.DATABASE_URL,
      applicationName: 'smsc-connector',
      logger,
    });
    const bus = createKafkaBus({
      brokers: config.KAFKA_BROKERS,
      clientId: 'smsc-connector',
      logger,
    });
    const connector = await startSmscConnector(config, { pool, bus, logger });
    return { app: connector.app, closers: [connector.stop, () => bus.close(), () => pool.end()] };
  },
);

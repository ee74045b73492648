import { createKafkaBus } from '@msg/bus';
import { exitOnConfigError } from '@msg/config';
import { createPool } from '@msg/db';
import { runService } from '@msg/http';
import { createLogger } from '@msg/logger';
import { loadAdminConfig } from './config.js';
import { startAdmin } from './service.js';

// Deployed form: one process, real Postgres and Kafka from the environment.
const config = exitOnConfigError(() => loadAdminConfig());
const logger = createLogger({ service: 'admin', level: config.LOG_LEVEL });

await runService({ name: 'admin', logger, port: config.PORT, host: config.HOST }, async () => {
  if (!config.DATABASE_URL || !config.KAFKA_BROKERS) {
    throw new Error(
      'DATABASE_URL and KAFKA_BROKERS are required when admin runs as its own process',
    );
  }
  const pool = createPool({ url: config.DATABASE_URL, applicationName: 'admin' });
  const bus = createKafkaBus({ brokers: config.KAFKA_BROKERS, clientId: 'admin', logger });
  const admin = await startAdmin(config, { pool, bus, logger });
  return { app: admin.app, closers: [admin.stop, () => bus.close(), () => pool.end()] };
});

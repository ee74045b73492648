import { createKafkaBus } from '@msg/bus';
import { exitOnConfigError } from '@msg/config';
import { createPool } from '@msg/db';
import { runService } from '@msg/http';
import { createLogger } from '@msg/logger';
import { loadSmsConfig } from './config.js';
import { startSmsService } from './service.js';

// Deployed form: one process, real Postgres and Kafka from the environment.
const config = exitOnConfigError(() => loadSmsConfig());
const logger = createLogger({ service: 'sms', level: config.LOG_LEVEL });

await runService({ name: 'sms', logger, port: config.PORT, host: config.HOST }, async () => {
  if (!config.DATABASE_URL || !config.KAFKA_BROKERS) {
    throw new Error('DATABASE_URL and KAFKA_BROKERS are required when sms runs as its own process');
  }
  const pool = createPool({ url: config.DATABASE_URL, applicationName: 'sms', logger });
  const bus = createKafkaBus({ brokers: config.KAFKA_BROKERS, clientId: 'sms', logger });
  const sms = await startSmsService(config, { pool, bus, logger });
  return { app: sms.app, closers: [sms.stop, () => bus.close(), () => pool.end()] };
});

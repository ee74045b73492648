import { createKafkaBus } from '@msg/bus';
import { exitOnConfigError } from '@msg/config';
import { createPool } from '@msg/db';
import { runService } from '@msg/http';
import { createLogger } from '@msg/logger';
import { loadBatchConfig } from './config.js';
import { startBatch } from './service.js';

// Deployed form: one process, real Postgres and Kafka from the environment.
const config = exitOnConfigError(() => loadBatchConfig());
const logger = createLogger({ service: 'batch', level: config.LOG_LEVEL });

await runService({ name: 'batch', logger, port: config.PORT, host: config.HOST }, async () => {
  if (!config.DATABASE_URL || !config.KAFKA_BROKERS) {
    throw new Error(
      'DATABASE_URL and KAFKA_BROKERS are required when batch runs as its own process',
    );
  }
  const pool = createPool({ url: config.DATABASE_URL, applicationName: 'batch' });
  const bus = createKafkaBus({ brokers: config.KAFKA_BROKERS, clientId: 'batch', logger });
  const batch = await startBatch(config, { pool, bus, logger });
  return { app: batch.app, closers: [batch.stop, () => bus.close(), () => pool.end()] };
});

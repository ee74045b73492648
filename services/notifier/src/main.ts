import { createKafkaBus } from '@msg/bus';
import { exitOnConfigError } from '@msg/config';
import { createPool } from '@msg/db';
import { runService } from '@msg/http';
import { createLogger } from '@msg/logger';
import { loadNotifierConfig } from './config.js';
import { startNotifier } from './service.js';

// Deployed form: one process, real Postgres and Kafka from the environment.
const config = exitOnConfigError(() => loadNotifierConfig());
const logger = createLogger({ service: 'notifier', level: config.LOG_LEVEL });

await runService({ name: 'notifier', logger, port: config.PORT, host: config.HOST }, async () => {
  if (!config.DATABASE_URL || !config.KAFKA_BROKERS) {
    throw new Error(
      'DATABASE_URL and KAFKA_BROKERS are required when the notifier runs as its own process',
    );
  }
  const pool = createPool({ url: config.DATABASE_URL, applicationName: 'notifier', logger });
  const bus = createKafkaBus({ brokers: config.KAFKA_BROKERS, clientId: 'notifier', logger });
  const notifier = await startNotifier(config, { pool, bus, logger });
  return { app: notifier.app, closers: [notifier.stop, () => bus.close(), () => pool.end()] };
});

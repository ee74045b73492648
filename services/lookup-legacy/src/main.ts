import { createKafkaBus } from '@msg/bus';
import { exitOnConfigError } from '@msg/config';
import { createPool } from '@msg/db';
import { runService } from '@msg/http';
import { createLogger } from '@msg/logger';
import { loadLookupLegacyConfig } from './config.js';
import { startLookupLegacy } from './service.js';

// Deployed form: one process, Kafka from the environment; Postgres only for shared rate limits.
const config = exitOnConfigError(() => loadLookupLegacyConfig());
const logger = createLogger({ service: 'lookup-legacy', level: config.LOG_LEVEL });

await runService(
  { name: 'lookup-legacy', logger, port: config.PORT, host: config.HOST },
  async () => {
    if (!config.KAFKA_BROKERS) {
      throw new Error('KAFKA_BROKERS is required when lookup-legacy runs as its own process');
    }
    const bus = createKafkaBus({
      brokers: config.KAFKA_BROKERS,
      clientId: 'lookup-legacy',
      logger,
    });
    const pool =
      config.DATABASE_URL &&
      createPool({ url: config.DATABASE_URL, max: 2, applicationName: 'lookup-legacy', logger });
    const service = await startLookupLegacy(config, { bus, logger, ...(pool && { pool }) });
    return {
      app: service.app,
      closers: [service.stop, () => bus.close(), ...(pool ? [() => pool.end()] : [])],
    };
  },
);

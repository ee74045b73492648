import { createKafkaBus } from '@msg/bus';
import { exitOnConfigError } from '@msg/config';
import { runService } from '@msg/http';
import { createLogger } from '@msg/logger';
import { loadLookupLegacyConfig } from './config.js';
import { startLookupLegacy } from './service.js';

// Deployed form: one process, Kafka from the environment; no database.
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
    const service = await startLookupLegacy(config, { bus, logger });
    return { app: service.app, closers: [service.stop, () => bus.close()] };
  },
);

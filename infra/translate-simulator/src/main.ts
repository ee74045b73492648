import { exitOnConfigError } from '@msg/config';
import { createLogger } from '@msg/logger';
import { loadTranslateSimulatorConfig } from './config.js';
import { startTranslateSimulator } from './start-translate-simulator.js';

const config = exitOnConfigError(() => loadTranslateSimulatorConfig());
const logger = createLogger({ service: 'translate-simulator', level: config.LOG_LEVEL });
const simulator = await startTranslateSimulator({
  port: config.PORT,
  host: config.HOST,
  apiKeys: config.TRANSLATE_API_KEYS,
  charLimit: config.TRANSLATE_CHAR_LIMIT,
  requestsPerMinute: config.TRANSLATE_REQ_LIMIT,
  logger,
});
logger.info('translate simulator ready', { url: simulator.url });

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    simulator.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}

import { exitOnConfigError } from '@msg/config';
import { createLogger } from '@msg/logger';
import { loadHlrSimulatorConfig } from './config.js';
import { startHlrSimulator } from './start-hlr-simulator.js';

const config = exitOnConfigError(() => loadHlrSimulatorConfig());
const logger = createLogger({ service: 'hlr-simulator', level: config.LOG_LEVEL });
const simulator = await startHlrSimulator({
  port: config.PORT,
  host: config.HOST,
  credentials: config.HLR_CREDENTIALS,
  logger,
});
logger.info('hlr simulator ready', { url: simulator.url });

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    simulator.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}

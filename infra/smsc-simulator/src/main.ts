import { exitOnConfigError } from '@msg/config';
import { createLogger } from '@msg/logger';
import { loadSmscSimulatorConfig } from './config.js';
import { startSmscSimulator } from './start-smsc-simulator.js';

const config = exitOnConfigError(() => loadSmscSimulatorConfig());
const logger = createLogger({ service: 'smsc-simulator', level: config.LOG_LEVEL });
const simulator = await startSmscSimulator({
  port: config.SMSC_PORT,
  host: config.SMSC_HOST,
  controlPort: config.CONTROL_PORT,
  credentials: config.SMSC_CREDENTIALS,
  receiptDelayMs: config.RECEIPT_DELAY_MS,
  rules: config.RULES,
  throttlePerSecond: config.THROTTLE_PER_SECOND ?? null,
  maxRecordedSubmits: config.MAX_RECORDED_SUBMITS,
  logger,
});
logger.info('smsc simulator ready', {
  smppUrl: simulator.smppUrl,
  controlUrl: simulator.controlUrl,
});

// SIGTERM/SIGINT: drop the binds, stop listening, exit.
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    simulator.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}

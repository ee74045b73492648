import { exitOnConfigError } from '@msg/config';
import { createLogger } from '@msg/logger';
import { loadSipCalleeConfig } from './config.js';
import { startSipCallee } from './start-sip-callee.js';

const config = exitOnConfigError(() => loadSipCalleeConfig());
const logger = createLogger({ service: 'sip-callee', level: config.LOG_LEVEL });
const callee = await startSipCallee({
  host: config.HOST,
  sipPort: config.SIP_PORT,
  controlPort: config.CONTROL_PORT,
  defaultBehaviour: config.SIP_CALLEE_DEFAULT,
  ...(config.SIP_CALLEE_RECORD_DIR !== undefined && { recordDir: config.SIP_CALLEE_RECORD_DIR }),
  ...(config.SIP_USERNAME !== undefined && { username: config.SIP_USERNAME }),
  ...(config.SIP_PASSWORD !== undefined && { password: config.SIP_PASSWORD }),
  logger,
});
logger.info('sip callee ready', {
  sip: `${callee.sipHost}:${callee.sipPort}`,
  control: callee.controlUrl,
  recordDir: callee.recordDir,
});

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    callee.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}

import { exitOnConfigError } from '@msg/config';
import { createLogger } from '@msg/logger';
import { loadRbmSimulatorConfig, readServiceAccountFile } from './config.js';
import { startRbmSimulator } from './start-rbm-simulator.js';

const config = exitOnConfigError(() => loadRbmSimulatorConfig());
const logger = createLogger({ service: 'rbm-simulator', level: config.LOG_LEVEL });
// The config check above has read the file once already.
const account = readServiceAccountFile(config.RBM_SERVICE_ACCOUNT_FILE);
if (!account) throw new Error('RBM_SERVICE_ACCOUNT_FILE became unreadable');
const simulator = await startRbmSimulator({
  port: config.PORT,
  host: config.HOST,
  serviceAccount: { clientEmail: account.client_email, key: account.private_key },
  ...(config.RBM_WEBHOOK_URL &&
    config.RBM_CLIENT_TOKEN && {
      webhook: { url: config.RBM_WEBHOOK_URL, clientToken: config.RBM_CLIENT_TOKEN },
    }),
  deliverDelayMs: config.RBM_DELIVER_DELAY,
  readDelayMs: config.RBM_READ_DELAY,
  pushAttempts: config.RBM_PUSH_ATTEMPTS,
  logger,
});
logger.info('rbm simulator ready', { url: simulator.url, tokenUrl: simulator.tokenUrl });

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    simulator.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}

import { exitOnConfigError } from '@msg/config';
import { onSigterm } from '@msg/http';
import { createLogger } from '@msg/logger';
import { loadGatewayConfig } from './config.js';
import { startGateway } from './start-gateway.js';

const config = exitOnConfigError(() => loadGatewayConfig());
const logger = createLogger({ service: 'gateway', level: config.LOG_LEVEL });
const gateway = await startGateway(config, { logger, processMetrics: true });
// SIGTERM: stop accepting, let in-flight requests finish, close upstream pools, flush logs, exit.
onSigterm([{ name: 'http', close: gateway.close }], logger, { timeoutMs: 24_000 });

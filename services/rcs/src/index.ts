export { assertAgentSupported } from './agents/client-agent.js';
export { createCapabilityChecker } from './capability/index.js';
export { loadRcsConfig, type RcsConfig, rcsSettings } from './config.js';
export { type RcsAccessOptions, rcsAccess } from './http/access.js';
export { rcsErrorFormat, VALIDATION_MESSAGE } from './http/error-format.js';
export { RCS_SCHEMA } from './schema.js';
export { RCS_MIGRATIONS, type RcsService, rcsService, startRcsService } from './service.js';

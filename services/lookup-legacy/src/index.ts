export {
  type LookupLegacyConfig,
  loadLookupLegacyConfig,
  lookupLegacySettings,
} from './config.js';
export {
  type LookupLegacyRuntime,
  type LookupLegacyService,
  startLookupLegacy,
} from './service.js';

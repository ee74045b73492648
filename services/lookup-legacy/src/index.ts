export {
  type LookupLegacyConfig,
  loadLookupLegacyConfig,
  lookupLegacySettings,
} from './config.js';
export {
  type LookupLegacyService,
  lookupLegacyService,
  startLookupLegacy,
} from './service.js';

export {
  loadReplypathLegacyConfig,
  type ReplypathLegacyConfig,
  replypathLegacySettings,
} from './config.js';
export {
  type ReplypathLegacyService,
  replypathLegacyService,
  startReplypathLegacy,
} from './service.js';

export { loadReplypathConfig, type ReplypathConfig, replypathSettings } from './config.js';
export { REPLYPATH_SCHEMA } from './schema.js';
export {
  REPLYPATH_MIGRATIONS,
  type ReplypathService,
  type ReplypathServiceOptions,
  replypathService,
  startReplypathService,
} from './service.js';

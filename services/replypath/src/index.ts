export { loadReplypathConfig, type ReplypathConfig, replypathSettings } from './config.js';
export {
  REPLYPATH_MIGRATIONS,
  REPLYPATH_SCHEMA,
  type ReplypathService,
  type ReplypathServiceOptions,
  replypathService,
  startReplypathService,
} from './service.js';

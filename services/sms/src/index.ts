export { loadSmsConfig, type SmsConfig, smsSettings } from './config.js';
export { type SmsRuntime, type SmsService, startSmsService } from './service.js';

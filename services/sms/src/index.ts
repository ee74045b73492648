export { loadSmsConfig, type SmsConfig, smsSettings } from './config.js';
export { type SmsService, startSmsService } from './service.js';

export { loadSmsConfig, type SmsConfig, smsSettings } from './config.js';
export { type SmsService, smsService, startSmsService } from './service.js';

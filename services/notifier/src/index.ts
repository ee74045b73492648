export { loadNotifierConfig, type NotifierConfig, notifierSettings } from './config.js';
export { type Notifier, notifierService, startNotifier } from './service.js';

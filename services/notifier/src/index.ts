export { loadNotifierConfig, type NotifierConfig, notifierSettings } from './config.js';
export { type Notifier, startNotifier } from './service.js';

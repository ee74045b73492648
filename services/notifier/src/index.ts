export { loadNotifierConfig, type NotifierConfig, notifierSettings } from './config.js';
export { type Notifier, type NotifierRuntime, startNotifier } from './service.js';

export { type AdminConfig, adminSettings, loadAdminConfig } from './config.js';
export { type AdminRuntime, startAdmin } from './service.js';

export { type AdminConfig, adminSettings, loadAdminConfig } from './config.js';
export { startAdmin } from './service.js';

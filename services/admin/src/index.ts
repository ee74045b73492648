export { type AdminConfig, adminSettings, loadAdminConfig } from './config.js';
export { adminService, startAdmin } from './service.js';

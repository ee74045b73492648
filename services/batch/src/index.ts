export { type BatchConfig, batchSettings, loadBatchConfig } from './config.js';
export { startBatch } from './service.js';

export { type BatchConfig, batchSettings, loadBatchConfig } from './config.js';
export { batchService, startBatch } from './service.js';

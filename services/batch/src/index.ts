export { type BatchConfig, batchSettings, loadBatchConfig } from './config.js';
export { type BatchRuntime, startBatch } from './service.js';

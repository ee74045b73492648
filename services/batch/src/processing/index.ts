export { type BatchWorkerDeps, type BatchWorkers, startBatchWorkers } from './batch-workers.js';
export { type StatusConsumerDeps, startStatusConsumer } from './status-consumer.js';

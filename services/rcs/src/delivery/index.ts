export { type DeliverySettings, deliverySettingsShape } from './config.js';
export { createDeliveryMetrics, type DeliveryOutcome } from './delivery-metrics.js';
export {
  createDeliveryHandler,
  type DeliveryDeps,
  type SmsFallback,
  startDeliveryWorker,
} from './delivery-worker.js';
export { createOutcomeStore, type DeliveryFailureReason } from './outcome-store.js';
export { toAgentMessageRequest, toContentMessage } from './rbm-request.js';

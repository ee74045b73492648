export { loadRbmSimulatorConfig, type RbmSimulatorConfig } from './config.js';
export { ALL_FEATURES, type DeviceProfile } from './devices.js';
export {
  type RbmSimulator,
  type RbmSimulatorOptions,
  startRbmSimulator,
} from './start-rbm-simulator.js';
export type { WebhookTarget } from './webhook-pusher.js';

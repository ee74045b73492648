export {
  CAPABILITY_TTL_SUPPORTED_MS,
  CAPABILITY_TTL_UNSUPPORTED_MS,
  type CapabilityChecker,
  type CapabilityResult,
  createCapabilityChecker,
} from './capability-checker.js';
export { RCS_FEATURES, specFeatures } from './features.js';

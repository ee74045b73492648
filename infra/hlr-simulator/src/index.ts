export {
  type HlrSimulatorConfig,
  hlrSimulatorConfigSchema,
  loadHlrSimulatorConfig,
} from './config.js';
export { CredentialSyntaxError } from './credentials.js';
export {
  type HlrSimulator,
  type HlrSimulatorOptions,
  startHlrSimulator,
} from './start-hlr-simulator.js';
export {
  answerFor,
  defaultStatus,
  HLR_STATUSES,
  type HlrAnswer,
  type HlrStatus,
  MSISDN_PATTERN,
} from './subscribers.js';

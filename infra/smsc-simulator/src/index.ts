export {
  loadSmscSimulatorConfig,
  type SmscSimulatorConfig,
  smscSimulatorConfigSchema,
} from './config.js';
export { CredentialSyntaxError, parseCredentials } from './credentials.js';
export { decodeGsm7, encodeGsm7 } from './gsm7.js';
export {
  parseRules,
  RECEIPT_OUTCOMES,
  type ReceiptOutcome,
  type ReceiptRule,
  RuleSyntaxError,
} from './receipt-rules.js';
export { MESSAGE_STATE } from './receipt-text.js';
export type { Concatenation } from './short-message.js';
export type {
  BindMode,
  InboundMessage,
  RecordedSubmit,
  SmscControl,
  SmscCredential,
  SmscStats,
  ThrottleSettings,
} from './smsc-types.js';
export {
  type SmscSimulator,
  type SmscSimulatorOptions,
  startSmscSimulator,
} from './start-smsc-simulator.js';
export type { SubmitSmFields } from './submit-sm-wire.js';

export {
  type AmdCause,
  type AmdEvent,
  type AmdParameters,
  AnsweringMachineDetector,
  DEFAULT_AMD_PARAMETERS,
} from './amd.js';
export { createSipCaller } from './caller.js';
export type { RtpStats } from './rtp/stream.js';
export type {
  CallOutcome,
  CallReport,
  CallRequest,
  SipCaller,
  SipCallerOptions,
  SipTrunk,
} from './types.js';

export { type HeardSummary, summarise } from './audio-analysis.js';
export { BEHAVIOURS, type Behaviour, SUFFIX_RULES, suffixBehaviour } from './behaviours.js';
export type { CallOutcome, CallRecord } from './callee-state.js';
export { loadSipCalleeConfig, type SipCalleeConfig, sipCalleeConfigSchema } from './config.js';
export { HUMAN_SCRIPT, MACHINE_SCRIPT, type PromptScript } from './prompts.js';
export { type SipCallee, type SipCalleeOptions, startSipCallee } from './start-sip-callee.js';
export type { CalleeTimings } from './uas.js';

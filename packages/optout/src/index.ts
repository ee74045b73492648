export {
  type OptOutChange,
  type OptOutSource,
  optOutKey,
} from '@msg/contracts';
export {
  accountKeywordProblem,
  classifyInbound,
  type KeywordKind,
  type KeywordMatch,
  MAX_ACCOUNT_KEYWORDS,
  MAX_KEYWORD_LENGTH,
  mayBeKeyword,
  normaliseKeyword,
  PLATFORM_START_WORDS,
  PLATFORM_STOP_WORDS,
} from './keywords.js';
export { isOptedOut, optedOutAmong, optedOutPairs, type Recipient } from './lookup.js';
export { type OptOutMessage, optOutEventFor, optOutMessage } from './opt-out-event.js';
export { OPTED_OUT_RULE, OptedOutError } from './opted-out-error.js';
export { recordOptOut } from './record.js';
export {
  applyOptOut,
  followOptOuts,
  OPT_OUT_MIGRATIONS_DIR,
  type OptOutReplica,
  type OptOutReplicaOptions,
  optOutsConsumer,
  optOutTable,
  type ReplicaHost,
  startOptOutReplica,
} from './replica.js';

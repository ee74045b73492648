export { e164Digits, isStrictE164 } from './e164.js';
export {
  type MsisdnFailure,
  type MsisdnType,
  type NormalizedMsisdn,
  type NormalizeOptions,
  normalizeMsisdn,
} from './normalize-msisdn.js';

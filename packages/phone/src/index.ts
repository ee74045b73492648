export {
  E164_DIGITS_PATTERN_SOURCE,
  E164_MAX_DIGITS,
  E164_MIN_DIGITS,
  E164_PATTERN,
  E164_PATTERN_SOURCE,
  E164_RULE,
  e164Digits,
  isE164Digits,
  isStrictE164,
} from './e164.js';
export {
  type MsisdnFailure,
  type MsisdnType,
  type NormalizedMsisdn,
  type NormalizeOptions,
  normalizeMsisdn,
} from './normalize-msisdn.js';

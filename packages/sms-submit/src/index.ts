export {
  type CheckedSms,
  checkSms,
  msisdnRule,
  type NumberRule,
  type SmsCheck,
  type SmsFields,
  type SmsInput,
  type SmsRules,
} from './check-sms.js';
export {
  createPrepaidBilling,
  InsufficientFundsError,
  insufficientFundsMessage,
  type PrepaidBilling,
  type PrepaidBillingOptions,
} from './prepaid-billing.js';
export {
  type OutboundSms,
  outboundInsert,
  queueOutbound,
  type RefusalReason,
  type RefusedSms,
  type SmsToSubmit,
  type Submission,
  type SubmitOutcome,
  type SubmitRequest,
  submitSms,
} from './submit-sms.js';

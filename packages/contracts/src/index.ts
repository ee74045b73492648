export {
  ACCOUNT_STATE_EVENT,
  type AccountApiKey,
  type AccountCallbacks,
  type AccountState,
  isNumberScope,
  isPermission,
  NUMBER_SCOPES,
  type NumberScope,
  PERMISSIONS,
  type Permission,
} from './accounts.js';
export {
  CALLBACK_DEAD_LETTER_EVENT,
  CALLBACK_REQUEST_EVENT,
  type CallbackDeadLetter,
  type CallbackRequest,
} from './callbacks.js';
export { type EventEnvelope, makeEvent } from './envelope.js';
export {
  type OpenApiDocument,
  type OpenApiDocumentName,
  openapiDocumentPath,
  readOpenApiDocument,
} from './openapi.js';
export {
  SMS_INBOUND_EVENT,
  SMS_OUTBOUND_EVENT,
  SMS_STATUS_EVENT,
  type SmsEncoding,
  type SmsInbound,
  type SmsOutbound,
  type SmsSource,
  type SmsState,
  type SmsStatus,
} from './sms.js';
export { type Topic, Topics } from './topics.js';

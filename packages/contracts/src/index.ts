export {
  ACCOUNT_STATE_EVENT,
  type AccountApiKey,
  type AccountBilling,
  type AccountCallbacks,
  type AccountState,
  accountStateSchema,
  BILLING_MODES,
  type BillingMode,
  isNumberScope,
  isPermission,
  NUMBER_SCOPES,
  type NumberScope,
  PERMISSIONS,
  type Permission,
} from './accounts.js';
export {
  asyncapiDocumentPath,
  asyncapiYaml,
  buildAsyncApiDocument,
  eventJsonSchema,
  type TopicConsumer,
  type TopicEnds,
  type TopicGraph,
} from './asyncapi.js';
export {
  BATCH_EVENT,
  type BatchDomainEvent,
  type BatchEventBody,
  batchDomainEventSchema,
  batchEventCallback,
} from './batch-events.js';
export {
  CALLBACK_DEAD_LETTER_EVENT,
  CALLBACK_REQUEST_EVENT,
  type CallbackDeadLetter,
  type CallbackRequest,
  callbackDeadLetterSchema,
  callbackRequestMessage,
  callbackRequestSchema,
} from './callbacks.js';
export {
  type Deprecation,
  deprecationHeaders,
  REPLYPATH_LEGACY_DEPRECATION,
  VOICE_LEGACY_DEPRECATION,
} from './deprecation.js';
export { type EventEnvelope, envelopeSchema, makeEvent, SCHEMA_VERSION } from './envelope.js';
export {
  type ContractTopic,
  eventContracts,
  eventSchemaOf,
  isContractTopic,
  type TopicDescription,
  type TopicEvent,
  type TopicPayload,
} from './event-contracts.js';
export { exampleEvents } from './event-examples.js';
export {
  INTERNAL_DOCUMENTS,
  type InternalDocumentName,
  internalDocumentPath,
  isInternalDocumentName,
  OPENAPI_DOCUMENTS,
  type OpenApiDocument,
  type OpenApiDocumentName,
  openapiDocumentPath,
  readOpenApiDocument,
  readServiceDocument,
} from './openapi.js';
export { type RequestExample, requestExamples } from './openapi-examples.js';
export {
  OPT_OUT_EVENT,
  OPT_OUT_SOURCES,
  type OptOutChange,
  type OptOutSource,
  optOutChangeSchema,
  optOutKey,
} from './opt-outs.js';
export {
  MAX_PROTECTED_SENDERS,
  PROTECTED_SENDERS_EVENT,
  PROTECTED_SENDERS_KEY,
  type ProtectedSenders,
  protectedSendersSchema,
} from './protected-senders.js';
export {
  RCS_EVENT,
  RCS_OUTBOUND_EVENT,
  RCS_TRAFFIC_TYPES,
  type RcsDomainEvent,
  type RcsOutbound,
  type RcsTrafficType,
  type RcsWebhookEvent,
  rcsDomainEventSchema,
  rcsOutboundSchema,
  rcsWebhookEventSchema,
} from './rcs.js';
export {
  SMS_INBOUND_EVENT,
  SMS_OUTBOUND_EVENT,
  SMS_SOURCE_HEADER,
  SMS_SOURCES,
  SMS_STATUS_EVENT,
  type SmsEncoding,
  type SmsInbound,
  type SmsOutbound,
  type SmsSource,
  type SmsState,
  type SmsStatus,
  smsInboundSchema,
  smsOutboundSchema,
  smsStatusSchema,
} from './sms.js';
export {
  isFinalSmsState,
  isSmsState,
  smsStateAdvances,
  statesAdvancedBy,
} from './sms-state.js';
export { type Topic, Topics } from './topics.js';

export { Topics, type Topic } from './topics.js';
export { type EventEnvelope, makeEvent } from './envelope.js';
export {
  ACCOUNT_STATE_EVENT,
  type AccountApiKey,
  type AccountCallbacks,
  type AccountState,
  NUMBER_SCOPES,
  type NumberScope,
  PERMISSIONS,
  type Permission,
} from './accounts.js';
export { openapiDocumentPath, type OpenApiDocumentName } from './openapi.js';

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
export { type EventEnvelope, makeEvent } from './envelope.js';
export {
  type OpenApiDocument,
  type OpenApiDocumentName,
  openapiDocumentPath,
  readOpenApiDocument,
} from './openapi.js';
export { type Topic, Topics } from './topics.js';

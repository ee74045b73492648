// Declares req.requestId and req.log on express's Request for every user of this package.
import './request-context.js';

export {
  ANY_TARGET,
  CLIENT_URL_FORMAT,
  clientUrlRule,
  isClientUrl,
  MAX_CLIENT_URL_LENGTH,
  PUBLIC_TARGETS_ONLY,
  type TargetPolicy,
} from './client-url.js';
export { createService, type KitHttpOptions, type ServiceOptions } from './create-service.js';
export { detailErrorFormat } from './detail-format.js';
export { type ErrorFormat, type ErrorResponse, jsonErrorFormat } from './error-format.js';
export * from './errors.js';
export {
  FORM_CONTENT_TYPE,
  formFailure,
  formTextErrorFormat,
  formValue,
} from './form-text-format.js';
export { checkReadiness, type ReadinessCheck, readinessProbe } from './health.js';
export {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
  type IdempotencyOptions,
} from './idempotency/idempotency.js';
export {
  createPostgresIdempotencyStore,
  IDEMPOTENCY_MIGRATIONS_DIR,
  type IdempotencyStore,
  type PostgresIdempotencyStoreOptions,
} from './idempotency/idempotency-store.js';
export {
  checkText,
  checkTextDeep,
  JSON_LIMITS,
  type JsonLimits,
  JsonRulesChecker,
  textProblem,
  utf8Check,
} from './json-input-rules.js';
export { problemErrorFormat, problemSlug } from './problem-format.js';
export {
  flushLogger,
  onSigterm,
  type ShutdownHandle,
  type ShutdownStep,
  type SigtermOptions,
} from './shutdown.js';
export {
  type ClientErrorRenderer,
  type RunningServer,
  renderClientErrorsWith,
  type ServerOptions,
  startServer,
} from './start-server.js';
export {
  type StatusLineFormatOptions,
  statusLine,
  statusLineErrorFormat,
} from './status-line-format.js';
